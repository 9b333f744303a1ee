// Linked into every program of the sanitizer build (cmake/CompilerFlags.cmake),
// never into a release build.
//
// Open MPI, PMIx and HDF5 load components with dlopen and unload them at
// finalize. Their process-lifetime allocations are suppressed by library in
// tests/sanitizers/lsan-mpi.supp, but the leak check runs at exit, after the
// unloading: an allocation made inside an unloaded component then has no
// module name to match, and only a full (slow) unwind of every allocation
// reached a library still loaded. Keeping every module loaded lets the leak
// check name them from the first frame, so the fast unwinder serves.
//
// The program's own definition takes precedence over libc's and the
// sanitizer runtime's for every library the program loads.
extern "C" int dlclose(void* handle) noexcept {
  static_cast<void>(handle);
  return 0;
}
