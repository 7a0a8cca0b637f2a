// A small RAII wrapper over the SQLite3 C API for the game store: Connection, Statement and
// Transaction. sqlite3.h stays out of this header, so only arbitre_data links SQLite; every
// failure is a StoreError whose problem is said in words ("the disk is full") followed by
// SQLite's own message.
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "data/store/store_error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace arbitre::data::store::sqlite {

class Statement;

// The words for an SQLite result code, with SQLite's message when it adds something.
std::string describe(int code, std::string_view sqlite_message);

class Connection {
 public:
  // Opens the file for reading and writing, creating it when `create`; through the named VFS
  // when vfs is not empty (tests use a shim). Nothing is read yet: a file that is not an SQLite
  // database fails at the first statement.
  Connection(std::string path, bool create, const std::string& vfs = "");
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  const std::string& path() const { return path_; }

  // Runs SQL text of one or more statements that return no rows we need.
  void exec(std::string_view sql);
  Statement prepare(std::string_view sql);
  // The single value of a query returning one row of one column (a PRAGMA, a COUNT).
  std::string query_text(std::string_view sql);
  std::int64_t query_int(std::string_view sql);

  void set_busy_timeout(int milliseconds);
  // True between BEGIN and COMMIT/ROLLBACK (SQLite may end a transaction itself on some errors).
  bool in_transaction() const;
  // Rolls back the open transaction, if any, ignoring errors (for unwinding).
  void rollback_if_open() noexcept;
  // True when SQLite opened the file read-only (it silently does so for a write-protected file).
  bool read_only() const;

  // Throws the StoreError for `code` with the connection's current error message.
  [[noreturn]] void fail(int code) const;

 private:
  friend class Statement;
  std::string path_;
  sqlite3* db_ = nullptr;
};

// A prepared statement; binding indexes and columns count from 1 and 0 as in SQLite.
class Statement {
 public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  template <std::integral T>
  Statement& bind(int index, T value) {
    return bind_int(index, static_cast<std::int64_t>(value));
  }
  Statement& bind(int index, std::string_view text);
  Statement& bind_null(int index);

  // Steps once: true when a row is ready, false when the statement is done.
  bool step();
  // Steps to the end, for statements whose rows are not wanted.
  void run();
  // Clears the bindings and makes the statement ready to run again.
  void reset();

  bool is_null(int column) const;
  std::int64_t int64(int column) const;
  double real(int column) const;
  std::string text(int column) const;

 private:
  friend class Connection;
  Statement(Connection& db, sqlite3_stmt* stmt) : db_(&db), stmt_(stmt) {}
  Statement& bind_int(int index, std::int64_t value);
  void check_bind(int code);

  Connection* db_;
  sqlite3_stmt* stmt_;
};

// BEGIN IMMEDIATE on construction (the write lock is taken at once, so two programs sharing the
// file wait for each other through the busy timeout instead of failing half way); ROLLBACK on
// destruction unless commit() succeeded.
class Transaction {
 public:
  explicit Transaction(Connection& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // COMMIT; when it fails the transaction is rolled back and the error thrown.
  void commit();

 private:
  Connection& db_;
  bool open_ = true;
};

}  // namespace arbitre::data::store::sqlite
