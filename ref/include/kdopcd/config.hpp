#pragma once
// One macro marks code that is shared between host C++ and CUDA device code (as cuBQL does):
// under nvcc it expands to __host__ __device__, under g++ to nothing.
#if defined(__CUDACC__)
#define KDOPCD_HD __host__ __device__
#else
#define KDOPCD_HD
#endif
