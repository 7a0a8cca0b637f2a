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

inline CliRun run_arbitre(const std::string& args) {
  // One file per test: CTest runs the tests in parallel processes.
  const std::string err_path = ::testing::TempDir() + "arbitre_cli_" +
                               ::testing::UnitTest::GetInstance()->current_test_info()->name() +
                               ".stderr";
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
  const std::string path = ::testing::TempDir() +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
                           name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace arbitre::testing
