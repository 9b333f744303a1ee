#include "run_log.hpp"

#include <sys/types.h>

#include <ctime>

#include "tethersim/version.hpp"

namespace tethersim::runtime {

namespace {

// A stream that writes to two others (or to the log alone: screen null). stdout and stderr are replaced by
// such streams (glibc lets them be assigned), so that every printf of the
// program reaches the log without each caller knowing of it.
struct Tee {
  std::FILE* screen;
  std::FILE* log;
};

ssize_t tee_write(void* cookie, const char* data, std::size_t size) {
  const Tee& tee = *static_cast<Tee*>(cookie);
  if (tee.screen != nullptr) {
    std::fwrite(data, 1, size, tee.screen);
    std::fflush(tee.screen);
  }
  std::fwrite(data, 1, size, tee.log);
  std::fflush(tee.log);  // a killed job keeps its log up to the last line
  return static_cast<ssize_t>(size);
}

int tee_close(void* cookie) {
  delete static_cast<Tee*>(cookie);
  return 0;
}

std::FILE* open_tee(std::FILE* screen, std::FILE* log, int buffering) {
  cookie_io_functions_t functions{};
  functions.write = tee_write;
  functions.close = tee_close;
  auto* tee = new Tee{screen, log};
  std::FILE* stream = fopencookie(tee, "w", functions);
  if (stream == nullptr) {
    delete tee;
    return nullptr;
  }
  std::setvbuf(stream, nullptr, buffering, buffering == _IONBF ? 0 : BUFSIZ);
  return stream;
}

}  // namespace

std::string run_log_header(bool continued, int ranks) {
  const std::time_t now = std::time(nullptr);
  char date[40] = "?";
  std::tm utc{};
  if (gmtime_r(&now, &utc) != nullptr) std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &utc);
  return std::string("# tethersim ") + kVersion + ", " + (continued ? "continued" : "started") + " " + date +
         " on " + std::to_string(ranks) + (ranks == 1 ? " MPI rank" : " MPI ranks");
}

RunLog::RunLog(const std::filesystem::path& directory, const std::string& first_line, bool quiet) {
  log_ = std::fopen((directory / "run.log").c_str(), "a");
  if (log_ == nullptr) return;
  std::fprintf(log_, "%s\n", first_line.c_str());
  std::fflush(stdout);
  std::fflush(stderr);
  std::FILE* out = open_tee(quiet ? nullptr : stdout, log_, _IOLBF);
  std::FILE* err = open_tee(stderr, log_, _IONBF);
  if (out == nullptr || err == nullptr) {
    if (out != nullptr) std::fclose(out);
    if (err != nullptr) std::fclose(err);
    return;
  }
  saved_out_ = stdout;
  saved_err_ = stderr;
  stdout = out;
  stderr = err;
}

RunLog::~RunLog() {
  if (saved_out_ != nullptr) {
    std::FILE* out = stdout;
    std::FILE* err = stderr;
    stdout = saved_out_;
    stderr = saved_err_;
    std::fclose(out);  // flushes into both
    std::fclose(err);
  }
  if (log_ != nullptr) std::fclose(log_);
}

}  // namespace tethersim::runtime
