#pragma once
// KDOPCD_NO_LOOP_TO_MEMSET marks a function whose short zeroing loops must stay loops: g++ turns
// them into memset calls, which for a few dozen bytes cost more than the stores. Only g++ has the
// option (clang, which compiles the library for the fuzz targets, does not do this and would warn
// about an unknown attribute).
#if defined(__GNUC__) && !defined(__clang__)
#define KDOPCD_NO_LOOP_TO_MEMSET __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define KDOPCD_NO_LOOP_TO_MEMSET
#endif
