#include "data/store/sqlite.h"

#include <sqlite3.h>

#include <cassert>
#include <utility>

namespace arbitre::data::store::sqlite {

std::string describe(int code, std::string_view sqlite_message) {
  // The schema's triggers say what they refuse in words already.
  if (code == SQLITE_CONSTRAINT_TRIGGER) return std::string(sqlite_message);
  const char* words = nullptr;
  switch (code & 0xff) {
    case SQLITE_FULL:
      words = "the disk is full";
      break;
    case SQLITE_NOTADB:
      words = "the file is not an SQLite database";
      break;
    case SQLITE_CORRUPT:
      words = "the database file is damaged";
      break;
    case SQLITE_READONLY:
      words =
          "the database cannot be written (check the permissions of the file and its directory)";
      break;
    case SQLITE_CANTOPEN:
      words = "the file cannot be opened (check that its directory exists and is writable)";
      break;
    case SQLITE_PERM:
    case SQLITE_AUTH:
      words = "permission denied";
      break;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      words = "the database is locked by another program (is another Arbitre running?)";
      break;
    case SQLITE_IOERR:
      words = "a disk read or write failed";
      break;
    case SQLITE_NOMEM:
      words = "out of memory";
      break;
    case SQLITE_TOOBIG:
      words = "a value is too large to store";
      break;
    case SQLITE_CONSTRAINT:
      words = "refused by the database schema";
      break;
    default:
      break;
  }
  if (words == nullptr) return std::string(sqlite_message);
  std::string text = words;
  if (!sqlite_message.empty()) text += " (SQLite: " + std::string(sqlite_message) + ")";
  return text;
}

Connection::Connection(std::string path, bool create, const std::string& vfs)
    : path_(std::move(path)) {
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_EXRESCODE;
  if (create) flags |= SQLITE_OPEN_CREATE;
  const int code = sqlite3_open_v2(path_.c_str(), &db_, flags, vfs.empty() ? nullptr : vfs.c_str());
  if (code != SQLITE_OK) {
    // sqlite3_open_v2 allocates a handle even when it fails, to carry the message.
    const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw StoreError(path_, "", describe(code, message), code);
  }
  sqlite3_extended_result_codes(db_, 1);
}

Connection::~Connection() {
  sqlite3_close_v2(db_);
}

void Connection::fail(int code) const {
  throw StoreError(path_, "", describe(code, sqlite3_errmsg(db_)), code);
}

void Connection::exec(std::string_view sql) {
  const std::string text(sql);
  char* message = nullptr;
  const int code = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message);
  if (code == SQLITE_OK) return;
  const std::string said = message != nullptr ? message : sqlite3_errstr(code);
  sqlite3_free(message);
  throw StoreError(path_, "", describe(code, said), code);
}

Statement Connection::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  const int code =
      sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (code != SQLITE_OK) fail(code);
  assert(stmt != nullptr && "empty SQL");
  return Statement(*this, stmt);
}

std::string Connection::query_text(std::string_view sql) {
  Statement statement = prepare(sql);
  if (!statement.step() || statement.is_null(0)) return "";
  return statement.text(0);
}

std::int64_t Connection::query_int(std::string_view sql) {
  Statement statement = prepare(sql);
  if (!statement.step()) return 0;
  return statement.int64(0);
}

void Connection::set_busy_timeout(int milliseconds) {
  const int code = sqlite3_busy_timeout(db_, milliseconds);
  if (code != SQLITE_OK) fail(code);
}

bool Connection::in_transaction() const {
  return sqlite3_get_autocommit(db_) == 0;
}

void Connection::rollback_if_open() noexcept {
  if (in_transaction()) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

bool Connection::read_only() const {
  return sqlite3_db_readonly(db_, "main") == 1;
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

void Statement::check_bind(int code) {
  if (code != SQLITE_OK) db_->fail(code);
}

Statement& Statement::bind_int(int index, std::int64_t value) {
  check_bind(sqlite3_bind_int64(stmt_, index, value));
  return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
  // SQLITE_TRANSIENT: SQLite copies the text, so temporaries may be bound.
  check_bind(
      sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  return *this;
}

Statement& Statement::bind_null(int index) {
  check_bind(sqlite3_bind_null(stmt_, index));
  return *this;
}

bool Statement::step() {
  const int code = sqlite3_step(stmt_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  db_->fail(code);
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t Statement::int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double Statement::real(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string Statement::text(int column) const {
  const auto* bytes = sqlite3_column_text(stmt_, column);
  if (bytes == nullptr) return "";
  return std::string(reinterpret_cast<const char*>(bytes),
                     static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

Transaction::Transaction(Connection& db) : db_(db) {
  db_.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
  if (open_) db_.rollback_if_open();
}

void Transaction::commit() {
  try {
    db_.exec("COMMIT");
  } catch (...) {
    // SQLite ends the transaction itself after some errors (a full disk, an I/O error);
    // otherwise it is still open and is rolled back here.
    db_.rollback_if_open();
    open_ = false;
    throw;
  }
  open_ = false;
}

}  // namespace arbitre::data::store::sqlite
