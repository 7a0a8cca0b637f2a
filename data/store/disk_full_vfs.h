// A test facility: an SQLite VFS that behaves like a disk with a given amount of free space.
// It passes everything to the default VFS, except that a write which would grow a file beyond
// the free space left fails with SQLITE_FULL, as the default VFS reports ENOSPC. Open a store
// on it with OpenOptions::vfs = disk_full_vfs().
#pragma once

#include <cstdint>
#include <optional>

namespace arbitre::data::store::testing {

// Registers the VFS (the first time) and returns its name.
const char* disk_full_vfs();

// The bytes by which files opened through the VFS may still grow, all files together;
// nullopt for no limit (the initial state). Overwriting bytes a file already has is always
// allowed.
void set_free_space(std::optional<std::int64_t> bytes);

}  // namespace arbitre::data::store::testing
