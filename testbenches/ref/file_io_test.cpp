// Checked file input and output (file_io.hpp): what is refused as an input, what as an output, a
// full device, and outputs that are one of the inputs.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "kdopcd/error.hpp"
#include "kdopcd/file_io.hpp"
#include "kdopcd/mesh_io.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/shapes.hpp"
#include "kdopcd/test_vectors.hpp"

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
  EXPECT_NE(error_of([&] { check_output_path(path("folder"), "--out"); }).find("is a directory"), std::string::npos);
  EXPECT_NE(error_of([&] { check_output_path(path("no/such/x.txt")); }).find("does not exist"), std::string::npos);
  EXPECT_EQ(error_of([&] { check_output_path(path("new.txt")); }), "");
  EXPECT_EQ(error_of([&] { check_output_path("/dev/null"); }), "");
  EXPECT_NE(error_of([&] { write_whole_file(path("folder"), "x"); }).find("is a directory"), std::string::npos);
}

TEST_F(FileIoTest, FullDeviceIsAnErrorEvenForAFewBytes) {
  if (!fs::is_character_file("/dev/full")) GTEST_SKIP() << "no /dev/full";
  EXPECT_NE(error_of([] { write_whole_file("/dev/full", "x\n"); }).find("No space left"), std::string::npos);
  EXPECT_NE(error_of([] { save_off(make_box({1, 1, 1}), "/dev/full"); }).find("No space left"), std::string::npos);
  EXPECT_EQ(error_of([] { write_whole_file("/dev/null", "x\n"); }), "");
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
  EXPECT_EQ(error_of([&] { check_outputs({{"--a", "/dev/null"}, {"--b", "/dev/null"}, {"--c", ""}}, inputs); }), "");
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
