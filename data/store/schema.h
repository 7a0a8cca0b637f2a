// The game store's schema. Its version is PRAGMA user_version: 0 is an empty file, and each
// version is reached from the one before by one forward migration, run in its own transaction
// together with the new user_version, so a database is always at exactly one known version.
// Migrations are never edited once released: a change of schema is a new migration.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace arbitre::data::store {

// The newest version this build knows; a file with a newer one is refused, not downgraded.
inline constexpr int kSchemaVersion = 4;

// PRAGMA application_id of every Arbitre store ("ARBT"), set by the first migration: it tells
// an Arbitre store from another program's SQLite file without guessing from table names.
inline constexpr std::int32_t kApplicationId = 0x41524254;

struct Migration {
  int version;               // the user_version it produces
  std::string_view summary;  // for messages
  std::string_view sql;
};

// Migrations 1..kSchemaVersion, in order (migrations()[i].version == i + 1).
std::span<const Migration> migrations();

}  // namespace arbitre::data::store
