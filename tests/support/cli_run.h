// Runs the `arbitre` binary as a user would, for the command-line tests.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

namespace arbitre::testing {


struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The current test's suite and name, "Suite.Name": unique among the tests that CTest runs in
// parallel processes (two suites have tests of the same name, Cli.UnknownColourIsBadInput and
// YamsCli.UnknownColourIsBadInput, which once wrote the same file at the same time).
inline std::string current_test_id() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "." + info->name();
}

inline CliRun run_arbitre(const std::string& args) {
  // One file per test: CTest runs the tests in parallel processes.
  const std::string err_path =
      ::testing::TempDir() + "arbitre_cli_" + current_test_id() + ".stderr";
  const std::string command = std::string(ARBITRE_BINARY) + " " + args + " 2>" + err_path;
  CliRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = slurp(err_path);
  return run;
}

inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + current_test_id() + "_" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace arbitre::testing
