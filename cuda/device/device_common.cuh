#pragma once
// Small host helpers of the CUDA sources: error checks and an owning device buffer. (No fmt here:
// its consteval format strings do not compile under nvcc 13.)
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace kdopcd::cuda::detail {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e) + " (" + std::to_string(int(e)) + ")");
}

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n) { allocate(n); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), n_(o.n_) {
    o.p_ = nullptr;
    o.n_ = 0;
  }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      p_ = o.p_;
      n_ = o.n_;
      o.p_ = nullptr;
      o.n_ = 0;
    }
    return *this;
  }
  ~DeviceBuffer() { release(); }
  void allocate(std::size_t n) {
    release();
    n_ = n;
    if (n) check(cudaMalloc(&p_, n * sizeof(T)), "cudaMalloc");
  }
  void upload(const std::vector<T>& v) {
    allocate(v.size());
    if (n_) check(cudaMemcpy(p_, v.data(), n_ * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  std::vector<T> download(std::size_t n) const {
    std::vector<T> v(n);
    if (n) check(cudaMemcpy(v.data(), p_, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return v;
  }
  T* get() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  void release() {
    if (p_) cudaFree(p_);
    p_ = nullptr;
    n_ = 0;
  }
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace kdopcd::cuda::detail
