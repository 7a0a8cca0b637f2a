#include "data/store/disk_full_vfs.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cassert>

namespace arbitre::data::store::testing {

namespace {

constexpr std::int64_t kUnlimited = -1;
std::atomic<std::int64_t> free_space{kUnlimited};

// A file of the shim: the default VFS's file object lives right after it (szOsFile says so).
struct ShimFile {
  sqlite3_file base;
  sqlite3_file* real;
};

sqlite3_file* real_of(sqlite3_file* file) {
  return reinterpret_cast<ShimFile*>(file)->real;
}
const sqlite3_io_methods& real_methods(sqlite3_file* file) {
  return *real_of(file)->pMethods;
}
sqlite3_vfs* real_vfs(sqlite3_vfs* vfs) {
  return static_cast<sqlite3_vfs*>(vfs->pAppData);
}

// Takes the growth from the free space; false when there is not enough.
bool reserve(std::int64_t growth) {
  std::int64_t left = free_space.load();
  do {
    if (left == kUnlimited) return true;
    if (growth > left) return false;
  } while (!free_space.compare_exchange_weak(left, left - growth));
  return true;
}

int shim_write(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  sqlite3_int64 size = 0;
  const int code = real_methods(file).xFileSize(real_of(file), &size);
  if (code != SQLITE_OK) return code;
  const sqlite3_int64 end = offset + amount;
  if (end > size && !reserve(end - size)) return SQLITE_FULL;
  return real_methods(file).xWrite(real_of(file), data, amount, offset);
}

int shim_close(sqlite3_file* file) {
  return real_methods(file).xClose(real_of(file));
}
int shim_read(sqlite3_file* file, void* data, int amount, sqlite3_int64 offset) {
  return real_methods(file).xRead(real_of(file), data, amount, offset);
}
int shim_truncate(sqlite3_file* file, sqlite3_int64 size) {
  return real_methods(file).xTruncate(real_of(file), size);
}
int shim_sync(sqlite3_file* file, int flags) {
  return real_methods(file).xSync(real_of(file), flags);
}
int shim_file_size(sqlite3_file* file, sqlite3_int64* size) {
  return real_methods(file).xFileSize(real_of(file), size);
}
int shim_lock(sqlite3_file* file, int level) {
  return real_methods(file).xLock(real_of(file), level);
}
int shim_unlock(sqlite3_file* file, int level) {
  return real_methods(file).xUnlock(real_of(file), level);
}
int shim_check_reserved_lock(sqlite3_file* file, int* out) {
  return real_methods(file).xCheckReservedLock(real_of(file), out);
}
int shim_file_control(sqlite3_file* file, int op, void* arg) {
  return real_methods(file).xFileControl(real_of(file), op, arg);
}
int shim_sector_size(sqlite3_file* file) {
  return real_methods(file).xSectorSize(real_of(file));
}
int shim_device_characteristics(sqlite3_file* file) {
  return real_methods(file).xDeviceCharacteristics(real_of(file));
}
int shim_shm_map(sqlite3_file* file, int region, int size, int extend, void volatile** out) {
  return real_methods(file).xShmMap(real_of(file), region, size, extend, out);
}
int shim_shm_lock(sqlite3_file* file, int offset, int n, int flags) {
  return real_methods(file).xShmLock(real_of(file), offset, n, flags);
}
void shim_shm_barrier(sqlite3_file* file) {
  real_methods(file).xShmBarrier(real_of(file));
}
int shim_shm_unmap(sqlite3_file* file, int delete_flag) {
  return real_methods(file).xShmUnmap(real_of(file), delete_flag);
}
int shim_fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) {
  return real_methods(file).xFetch(real_of(file), offset, amount, out);
}
int shim_unfetch(sqlite3_file* file, sqlite3_int64 offset, void* page) {
  return real_methods(file).xUnfetch(real_of(file), offset, page);
}

const sqlite3_io_methods kMethods = {
    3,
    shim_close,
    shim_read,
    shim_write,
    shim_truncate,
    shim_sync,
    shim_file_size,
    shim_lock,
    shim_unlock,
    shim_check_reserved_lock,
    shim_file_control,
    shim_sector_size,
    shim_device_characteristics,
    shim_shm_map,
    shim_shm_lock,
    shim_shm_barrier,
    shim_shm_unmap,
    shim_fetch,
    shim_unfetch,
};

int shim_open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file, int flags,
              int* out_flags) {
  auto* shim = reinterpret_cast<ShimFile*>(file);
  shim->real = reinterpret_cast<sqlite3_file*>(shim + 1);
  sqlite3_vfs* real = real_vfs(vfs);
  const int code = real->xOpen(real, name, shim->real, flags, out_flags);
  // SQLite calls xClose whenever pMethods is set, even after a failed xOpen: mirror the real
  // file. The shim forwards methods of version 3, which the default (unix) VFS provides.
  assert(shim->real->pMethods == nullptr || shim->real->pMethods->iVersion >= 3);
  shim->base.pMethods = shim->real->pMethods != nullptr ? &kMethods : nullptr;
  return code;
}

int shim_delete(sqlite3_vfs* vfs, const char* name, int sync_dir) {
  return real_vfs(vfs)->xDelete(real_vfs(vfs), name, sync_dir);
}
int shim_access(sqlite3_vfs* vfs, const char* name, int flags, int* out) {
  return real_vfs(vfs)->xAccess(real_vfs(vfs), name, flags, out);
}
int shim_full_pathname(sqlite3_vfs* vfs, const char* name, int size, char* out) {
  return real_vfs(vfs)->xFullPathname(real_vfs(vfs), name, size, out);
}
void* shim_dl_open(sqlite3_vfs* vfs, const char* name) {
  return real_vfs(vfs)->xDlOpen(real_vfs(vfs), name);
}
void shim_dl_error(sqlite3_vfs* vfs, int size, char* out) {
  real_vfs(vfs)->xDlError(real_vfs(vfs), size, out);
}
void (*shim_dl_sym(sqlite3_vfs* vfs, void* handle, const char* symbol))(void) {
  return real_vfs(vfs)->xDlSym(real_vfs(vfs), handle, symbol);
}
void shim_dl_close(sqlite3_vfs* vfs, void* handle) {
  real_vfs(vfs)->xDlClose(real_vfs(vfs), handle);
}
int shim_randomness(sqlite3_vfs* vfs, int size, char* out) {
  return real_vfs(vfs)->xRandomness(real_vfs(vfs), size, out);
}
int shim_sleep(sqlite3_vfs* vfs, int microseconds) {
  return real_vfs(vfs)->xSleep(real_vfs(vfs), microseconds);
}
int shim_current_time(sqlite3_vfs* vfs, double* out) {
  return real_vfs(vfs)->xCurrentTime(real_vfs(vfs), out);
}
int shim_get_last_error(sqlite3_vfs* vfs, int size, char* out) {
  return real_vfs(vfs)->xGetLastError(real_vfs(vfs), size, out);
}
int shim_current_time_int64(sqlite3_vfs* vfs, sqlite3_int64* out) {
  return real_vfs(vfs)->xCurrentTimeInt64(real_vfs(vfs), out);
}

sqlite3_vfs* make_vfs() {
  sqlite3_vfs* real = sqlite3_vfs_find(nullptr);
  assert(real != nullptr && real->iVersion >= 2);
  static sqlite3_vfs vfs = {
      2,  // iVersion: no system-call overrides
      static_cast<int>(sizeof(ShimFile)) + real->szOsFile,
      real->mxPathname,
      nullptr,
      "arbitre-disk-full",
      real,
      shim_open,
      shim_delete,
      shim_access,
      shim_full_pathname,
      shim_dl_open,
      shim_dl_error,
      shim_dl_sym,
      shim_dl_close,
      shim_randomness,
      shim_sleep,
      shim_current_time,
      shim_get_last_error,
      shim_current_time_int64,
      nullptr,
      nullptr,
      nullptr,
  };
  sqlite3_vfs_register(&vfs, /*makeDflt=*/0);
  return &vfs;
}

}  // namespace

const char* disk_full_vfs() {
  static sqlite3_vfs* vfs = make_vfs();
  return vfs->zName;
}

void set_free_space(std::optional<std::int64_t> bytes) {
  free_space.store(bytes ? std::max<std::int64_t>(*bytes, 0) : kUnlimited);
}

}  // namespace arbitre::data::store::testing
