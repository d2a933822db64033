// Checked file input and output (file_io.hpp, library_output.hpp): what is refused as an input,
// what as an output, a full disk, outputs that are one of the inputs or one another (through links
// to files not created yet), the readers' errors, the streamed pose reader, and the claim and
// read-back of outputs that a library writes.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>

#include <filesystem>
#include <fstream>
#include <string>

#include "kdopcd/error.hpp"
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/library_output.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd/test_vectors.hpp"
#include "kdopcd/tree_image.hpp"

namespace kdopcd {
namespace {

namespace fs = std::filesystem;

class FileIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kdopcd_file_io_" + std::to_string(getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path(name)) << text; }
  fs::path dir_;
};

// The message of the InputError `f` throws (empty when it throws nothing).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_F(FileIoTest, InputsMustBeRegularFiles) {
  fs::create_directories(path("folder.txt"));
  ASSERT_EQ(mkfifo(path("fifo.txt").c_str(), 0600), 0);
  write("poses.txt", "1 0 0 0 0 0 0\n");
  EXPECT_NE(error_of([&] { require_regular_file(path("folder.txt"), "pose file"); }).find("is a directory"),
            std::string::npos);
  EXPECT_NE(error_of([&] { require_regular_file(path("fifo.txt")); }).find("FIFO"), std::string::npos);
  EXPECT_NE(error_of([&] { require_regular_file("/dev/null"); }).find("character device"), std::string::npos);
  EXPECT_NE(error_of([&] { require_regular_file(path("missing.txt")); }).find("not found"), std::string::npos);
  EXPECT_EQ(error_of([&] { require_regular_file(path("poses.txt")); }), "");
  // Every loader goes through it: a directory is never read as an empty file.
  EXPECT_NE(error_of([&] { load_poses(path("folder.txt")); }).find("is a directory"), std::string::npos);
  EXPECT_NE(error_of([&] { load_test_vectors(path("folder.txt")); }).find("is a directory"), std::string::npos);
  EXPECT_NE(error_of([&] { load_poses(path("fifo.txt")); }).find("FIFO"), std::string::npos);
  EXPECT_EQ(load_poses(path("poses.txt")).size(), 1u);
}

TEST_F(FileIoTest, OutputPaths) {
  fs::create_directories(path("folder"));
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_NE(error_of([&] { check_output_path(path("folder"), "--out"); }).find("is a directory"), std::string::npos);
  EXPECT_NE(error_of([&] { check_output_path(path("no/such/x.txt")); }).find("does not exist"), std::string::npos);
  EXPECT_EQ(error_of([&] { check_output_path(path("new.txt")); }), "");
  // Devices and FIFOs are no outputs: refused before anything is opened (a FIFO would block).
  EXPECT_NE(error_of([&] { check_output_path("/dev/null", "--json"); }).find("--json /dev/null: is a character device"),
            std::string::npos);
  EXPECT_NE(error_of([&] { check_output_path(path("fifo")); }).find("FIFO"), std::string::npos);
  EXPECT_NE(error_of([&] { write_whole_file(path("fifo"), "x"); }).find("FIFO"), std::string::npos);
  EXPECT_NE(error_of([&] { write_whole_file(path("folder"), "x"); }).find("is a directory"), std::string::npos);
  // A link to a file not created yet is an output in the link's target folder.
  fs::create_symlink(path("no/such/t.txt"), path("dangling"));
  EXPECT_NE(error_of([&] { check_output_path(path("dangling")); }).find("does not exist"), std::string::npos);
  fs::create_symlink(path("later.txt"), path("to-later"));
  EXPECT_EQ(error_of([&] { write_whole_file(path("to-later"), "x"); }), "");
  EXPECT_TRUE(fs::is_symlink(path("to-later")));
  EXPECT_EQ(read_whole_file(path("later.txt")), "x");
}

TEST_F(FileIoTest, ResolvedOutputPathFollowsEveryLink) {
  fs::create_directories(path("sub"));
  fs::create_symlink(path("sub/../target.txt"), path("one"));
  fs::create_symlink("one", path("two"));  // relative, to a link, to a file that does not exist
  const fs::path want = fs::weakly_canonical(dir_) / "target.txt";
  EXPECT_EQ(resolved_output_path(path("two")), want);
  EXPECT_EQ(resolved_output_path(path("sub/../target.txt")), want);
  fs::create_symlink(path("loop-b"), path("loop-a"));
  fs::create_symlink(path("loop-a"), path("loop-b"));
  EXPECT_NE(error_of([&] { resolved_output_path(path("loop-a")); }).find("symbolic links"), std::string::npos);
}

// A full disk without a full device: a file-size limit makes every write past it fail (EFBIG),
// as ENOSPC does, with SIGXFSZ ignored so that the write returns the error.
TEST_F(FileIoTest, FullDiskIsAnErrorEvenForAFewBytes) {
  struct rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old;
  small.rlim_cur = 4;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  const std::string few = error_of([&] { write_whole_file(path("a.txt"), "more than 4\n"); });
  const std::string mesh = error_of([&] { save_off(make_box({1, 1, 1}), path("b.off")); });
  const std::string fits = error_of([&] { write_whole_file(path("c.txt"), "abc"); });
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_NE(few.find("File too large"), std::string::npos) << few;
  EXPECT_NE(mesh.find("File too large"), std::string::npos) << mesh;
  EXPECT_EQ(fits, "");
}

TEST_F(FileIoTest, ReadersThrowInputErrorForEveryInputFault) {
  fs::create_directories(path("dir.img"));
  ASSERT_EQ(mkfifo(path("fifo.img").c_str(), 0600), 0);
  EXPECT_NE(error_of([&] { read_tree_image(path("dir.img")); }).find("is a directory"), std::string::npos);
  EXPECT_NE(error_of([&] { read_tree_image(path("fifo.img")); }).find("FIFO"), std::string::npos);
  EXPECT_NE(error_of([&] { read_tree_image(path("none.img")); }).find("not found"), std::string::npos);
  write("short.img", "KDOP");
  EXPECT_NE(error_of([&] { read_tree_image(path("short.img")); }), "");
  fs::create_directories(path("dir.off"));
  EXPECT_NE(error_of([&] { load_mesh(path("dir.off")); }).find("is a directory"), std::string::npos);
  // A tree image written and read back through the checked helpers.
  const Mesh box = make_box({1, 2, 3});  // a tree refers to its mesh
  const DopTree tree(box, 6);
  const TreeImage image = make_tree_image(tree, ImageParams{18, 24, 64, 4.0});
  write_tree_image(path("box.img"), image);
  EXPECT_EQ(encode(read_tree_image(path("box.img"))), encode(image));
}

TEST_F(FileIoTest, PoseReaderStreamsWhatParsePosesReads) {
  std::string text = "# header\n\n1 0 0 0 0 0 0  # identity\r\n  0 1 0 0 1e-3 -2 0x1p-3";  // no final newline
  write("p.txt", text);
  const std::vector<Pose> all = parse_poses(text, path("p.txt"));
  PoseReader reader(path("p.txt"));
  std::vector<Pose> streamed;
  for (Pose p; reader.next(p);) streamed.push_back(p);
  ASSERT_EQ(streamed.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(streamed[i].translation, all[i].translation);
  // The same messages, with the line number.
  write("bad.txt", "1 0 0 0 0 0 0\n\n1 0 0 0 0 zero 0\n");
  PoseReader bad(path("bad.txt"));
  Pose p;
  EXPECT_TRUE(bad.next(p));
  EXPECT_NE(error_of([&] { bad.next(p); }).find("bad.txt:3"), std::string::npos);
  write("none.txt", "# nothing\n");
  PoseReader none(path("none.txt"));
  EXPECT_NE(error_of([&] { none.next(p); }).find("no poses"), std::string::npos);
  write("long.txt", std::string(kMaxPoseLineBytes + 10, ' ') + "1 0 0 0 0 0 0\n");
  PoseReader long_line(path("long.txt"));
  EXPECT_NE(error_of([&] { long_line.next(p); }).find("longer than"), std::string::npos);
  EXPECT_NE(error_of([&] { parse_poses(std::string(kMaxPoseLineBytes + 1, ' '), "x"); }).find("longer than"),
            std::string::npos);
  // The scale limit: 2^100 is accepted, the next double above it is not.
  EXPECT_EQ(error_of([] { parse_pose("1 0 0 0 0x1p100 0 -0x1p100", "t"); }), "");
  EXPECT_NE(error_of([] { parse_pose("1 0 0 0 0x1.0000000000001p100 0 0", "t"); }).find("scale limit"),
            std::string::npos);
}

TEST_F(FileIoTest, LibraryOutputsAreClaimedAndReadBack) {
  fs::create_directories(path("dir.vcd"));
  EXPECT_NE(error_of([&] { require_extension(path("t"), ".vcd", "--trace", "SystemC"); }).find("must end in .vcd"),
            std::string::npos);
  EXPECT_EQ(error_of([&] { require_extension(path("t.vcd"), ".vcd", "--trace", "SystemC"); }), "");
  EXPECT_NE(error_of([&] { claim_library_output("/dev/null", "--trace"); }).find("character device"), std::string::npos);
  EXPECT_NE(error_of([&] { claim_library_output(path("dir.vcd"), "--trace"); }).find("directory"), std::string::npos);
  // Claimed: created (or truncated) here; a link gives its target.
  write("old.fst", "old content");
  fs::create_symlink(path("old.fst"), path("link.fst"));
  EXPECT_EQ(claim_library_output(path("link.fst"), "--trace"), fs::weakly_canonical(path("old.fst")).string());
  EXPECT_EQ(fs::file_size(path("old.fst")), 0u);
  // A scratch file of the writer's that exists is refused, and kept.
  write("w.fst.hier", "keep");
  EXPECT_NE(error_of([&] { claim_library_output(path("w.fst"), "--trace", {".hier"}); }).find("w.fst.hier"),
            std::string::npos);
  EXPECT_EQ(read_whole_file(path("w.fst.hier")), "keep");
  // Read back: a tail marker, and the FST block structure.
  // The VCD: the end comment, then at most the one time block SystemC had pending at the close.
  const std::string body = "$enddefinitions $end\n#0\n1!\n\n$comment\nend\n$end\n\n";
  for (const std::string& after : {std::string(), std::string("#42\n"), std::string("#42\n0!\nb101 \"\n\n#44\n")}) {
    write("t.vcd", body + after);
    EXPECT_EQ(error_of([&] { check_vcd_file(path("t.vcd"), "end", "--trace"); }), "") << after;
  }
  for (const std::string& cut : {body.substr(0, body.size() - 1), body + "#42\n0!\n", body + "#42\n0!\n\n#4",
                                 body + "42\n", std::string("$enddefinitions $end\n#0\n1!\n")}) {
    write("cut.vcd", cut);
    EXPECT_NE(error_of([&] { check_vcd_file(path("cut.vcd"), "end", "--trace"); }).find("incomplete"), std::string::npos)
        << cut;
  }
  auto block = [](std::uint8_t tag, std::size_t payload) {
    std::string b(1, char(tag));
    const std::uint64_t length = 8 + payload;
    for (int i = 7; i >= 0; --i) b += char((length >> (8 * i)) & 0xff);
    return b + std::string(payload, 'x');
  };
  write("ok.fst", block(0, 320) + block(1, 100) + block(3, 7));
  EXPECT_EQ(error_of([&] { check_fst_file(path("ok.fst"), "--trace"); }), "");
  const std::string whole = block(0, 320) + block(1, 100);
  write("cut.fst", whole.substr(0, whole.size() - 1));
  EXPECT_NE(error_of([&] { check_fst_file(path("cut.fst"), "--trace"); }).find("runs past the end"), std::string::npos);
  write("skip.fst", block(0, 320) + block(255, 10));
  EXPECT_NE(error_of([&] { check_fst_file(path("skip.fst"), "--trace"); }).find("never finished"), std::string::npos);
  write("nohdr.fst", block(1, 10));
  EXPECT_NE(error_of([&] { check_fst_file(path("nohdr.fst"), "--trace"); }).find("header"), std::string::npos);
}

TEST_F(FileIoTest, OutputThatIsAnInputIsRefused) {
  write("in.off", "OFF\n");
  fs::create_symlink(path("in.off"), path("link.off"));
  fs::create_hard_link(path("in.off"), path("hard.off"));
  const std::vector<std::string> inputs{path("in.off")};
  for (const char* name : {"in.off", "link.off", "hard.off"})
    EXPECT_NE(error_of([&] { check_outputs({{"--out", path(name)}}, inputs); }).find("refusing to overwrite"),
              std::string::npos)
        << name;
  // Relative spellings of the same file too.
  const fs::path cwd = fs::current_path();
  fs::current_path(dir_);
  EXPECT_NE(error_of([&] { check_outputs({{"--out", "./in.off"}}, {path("in.off")}); }).find("refusing"),
            std::string::npos);
  fs::current_path(cwd);
  // Two outputs naming one file, existing or not; /dev/null may repeat.
  EXPECT_NE(error_of([&] { check_outputs({{"--a", path("o.txt")}, {"--b", path("./o.txt")}}, inputs); })
                .find("same file"),
            std::string::npos);
  write("o.txt", "");
  EXPECT_NE(error_of([&] { check_outputs({{"--a", path("o.txt")}, {"--b", path("o.txt")}}, inputs); })
                .find("same file"),
            std::string::npos);
  EXPECT_NE(error_of([&] { check_outputs({{"--a", "/dev/null"}, {"--c", ""}}, inputs); }).find("character device"),
            std::string::npos);
  // Through a link whose target does not exist yet, and through a chain of them.
  fs::create_symlink(path("p.txt"), path("link-to-p.txt"));
  fs::create_symlink(path("link-to-p.txt"), path("link-to-link"));
  EXPECT_NE(error_of([&] { check_outputs({{"--pairs", path("p.txt")}, {"--json", path("link-to-p.txt")}}, inputs); })
                .find("--json " + path("link-to-p.txt") + " and --pairs " + path("p.txt") + " name the same file"),
            std::string::npos);
  EXPECT_NE(error_of([&] { check_outputs({{"--a", path("link-to-link")}, {"--b", path("p.txt")}}, inputs); })
                .find("same file"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(path("p.txt")));
  EXPECT_EQ(error_of([&] { check_outputs({{"--out", path("other.txt")}}, inputs); }), "");
}

TEST_F(FileIoTest, OutputFileWritesAndTruncates) {
  write("o.txt", "old content that is longer");
  {
    OutputFile out(path("o.txt"));
    out << "new";
    out.close();
  }
  std::ifstream in(path("o.txt"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "new");
  EXPECT_EQ(read_whole_file(path("o.txt")), "new");
}

}  // namespace
}  // namespace kdopcd
