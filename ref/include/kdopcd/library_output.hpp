#pragma once
// Outputs that a simulator library writes itself, by name: SystemC's VCD writer and Verilator's
// FST writer (the `kdop sim --trace` waves). kdop cannot check those writes one by one, so it
// checks around them (docs/cli.md, "Files"): before, the path passes every check of an output
// (file_io.hpp) and is created here, so that an unwritable folder is an error before any work;
// after the library closed the file, the file is read back and must be complete, so that a disk
// that filled up while the library wrote is an error too. Every problem throws InputError.
#include <string>
#include <string_view>
#include <vector>

namespace kdopcd {

// Refuses a path that does not end in `extension`, for a writer that appends the extension
// itself (SystemC's VCD writer writes NAME.vcd when given NAME): the file written is then exactly
// the file named, never a sibling of it.
void require_extension(const std::string& path, std::string_view extension, std::string_view option,
                       std::string_view writer);

// Checks `path` as an output (check_output_path), then creates it, or opens and truncates it, with
// the open checked. `scratch_suffixes` name files the library writes beside its output while it
// runs and deletes at the end (Verilator's FST writer: PATH.hier): one that exists already is
// refused rather than overwritten and deleted. Returns the path to hand to the library: the
// resolved one (resolved_output_path), so that a library that deletes and re-creates its file
// replaces the file, not a symbolic link that named it.
std::string claim_library_output(const std::string& path, std::string_view option,
                                 const std::vector<std::string>& scratch_suffixes = {});

// After SystemC's VCD writer closed `path`: the file must end with the `$comment` block holding
// `end_comment` that the caller had the writer put last, followed at most by what the writer adds
// at the close (the values still pending and a final "#<time>" line: whole lines, the last one that
// time stamp). A write that failed on the way (a full disk) leaves a file that is shorter: without
// the comment, or cut off inside a line.
void check_vcd_file(const std::string& path, std::string_view end_comment, std::string_view option);

// After Verilator's FST writer closed `path`: the file must be exactly a sequence of finished
// blocks (a one-byte tag and a 64-bit big-endian length that counts itself and the payload), the
// first one the header; a write that failed leaves a block that runs past the end of the file.
void check_fst_file(const std::string& path, std::string_view option);

}  // namespace kdopcd
