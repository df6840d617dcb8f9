// The RFB server. Threads:
//  - the picture thread waits for composed pictures, copies what changed
//    into LibVNCServer's framebuffer and marks it modified, resizes the
//    framebuffer, and schedules lossless refreshes;
//  - the accept thread takes connections and gives each a short-lived
//    handshake thread, which tells a browser asking for noVNC's pages from
//    a VNC viewer or a WebSocket (both handed to LibVNCServer). It also
//    keeps the doors: a connection that is not a viewer by its handshake
//    deadline, or a viewer that has gone quiet, is closed; one address
//    holds only a few connections that are not viewers yet; an address
//    that sent too many wrong passwords is refused for a while;
//  - LibVNCServer runs two threads per viewer (its threaded mode): one
//    reads its input, one encodes and sends its updates, so a slow or
//    stalled viewer holds up no one else. Sending blocks on that viewer's
//    socket, never on a growing queue: what is pending is a region.
//
// Where it listens and the HTTP side: vnc_net.cpp.
//
// LibVNCServer's own listener is not used: it would serve pages on a second
// port with a server that handles one connection at a time.
#include "comp/vnc_server.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <rfb/rfb.h>
extern "C" {
#include <rfb/rfbregion.h>  // declared without C linkage
}
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <bit>
#include <cerrno>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>

#include "vnc_doors.h"
#include "vnc_net.h"
#include "wire/fd.h"

namespace comp {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kPictureWait = 50ms;
constexpr auto kFirstPictureWait = 200ms;
constexpr auto kGreetingWait = 250ms;  // a viewer's greeting waits this long for a current picture
constexpr auto kLosslessDelay = 300ms;   // quiet this long: send what changed losslessly
constexpr time_t kStalledViewerSeconds = 1;  // a resize waits this long for a viewer's send
constexpr int kClientWaitMs = 5000;      // a viewer whose socket takes nothing this long is dropped
constexpr int kSniffMs = 250;            // browsers speak at once; VNC viewers wait for the server
constexpr auto kRequestTime = 3s;
constexpr auto kPageSendTime = 10s;
constexpr size_t kMaxRequestHead = 8192;
constexpr int kMaxPeerLogsPerMinute = 30;
constexpr uint32_t kMaxSide = 16384;
constexpr uint32_t kDefaultWidth = 640, kDefaultHeight = 480;
constexpr const char* kDefaultNovncDir = "/usr/share/novnc";

// LibVNCServer keeps its client list lock in a global that rfbGetScreen
// initializes again.
std::atomic<bool> g_server_running{false};

void vlog(const char* format, va_list args) {
  char text[512];
  std::vsnprintf(text, sizeof text, format, args);
  size_t n = std::strlen(text);
  while (n > 0 && text[n - 1] == '\n') text[--n] = '\0';
  std::fprintf(stderr, "conduit host: vnc: %s\n", text);
}

[[gnu::format(printf, 1, 2)]] void log_line(const char* format, ...) {
  va_list args;
  va_start(args, format);
  vlog(format, args);
  va_end(args);
}

// At most kMaxPeerLogsPerMinute lines a minute from one budget.
class LogBudget {
 public:
  bool allows() {
    std::lock_guard lock(mutex_);
    const auto now = Clock::now();
    if (now - window_ > 1min) {
      window_ = now;
      count_ = 0;
    }
    if (++count_ == kMaxPeerLogsPerMinute + 1) log_line("more viewer messages this minute are not shown");
    return count_ <= kMaxPeerLogsPerMinute;
  }

 private:
  std::mutex mutex_;
  Clock::time_point window_;
  int count_ = 0;
};

// Viewers (anyone who can connect) decide how often these happen; an
// address refused for its wrong passwords is told from a budget of its
// own, so that a flood of other messages does not hide it.
LogBudget g_peer_budget, g_door_budget;

[[gnu::format(printf, 1, 2)]] void log_peer(const char* format, ...) {
  if (!g_peer_budget.allows()) return;
  va_list args;
  va_start(args, format);
  vlog(format, args);
  va_end(args);
}

[[gnu::format(printf, 1, 2)]] void log_door(const char* format, ...) {
  if (!g_door_budget.allows()) return;
  va_list args;
  va_start(args, format);
  vlog(format, args);
  va_end(args);
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

void library_log(const char*, ...) {}

void library_error(const char* format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  // Wrong passwords are told by check_password().
  if (std::strstr(text, "authentication failed") || std::strstr(text, "password check failed")) return;
  log_peer("%s", text);
}

using wire::Fd;

using Region = std::unique_ptr<sraRegion, decltype(&sraRgnDestroy)>;

Region empty_region() { return Region(sraRgnCreate(), &sraRgnDestroy); }

Region rect_region(int x, int y, int width, int height) {
  return Region(sraRgnCreateRect(x, y, x + width, y + height), &sraRgnDestroy);
}

// ---- pixels ----------------------------------------------------------------

// The framebuffer keeps LibVNCServer's own pixel format, red in the low
// byte on this byte order (0x00BBGGRR words): pictures are swizzled as they
// are copied in, and a resize never changes the format under the viewers.
static_assert(std::endian::native == std::endian::little);

uint32_t to_framebuffer(uint32_t rgb) {
  return (rgb & 0x0000ff00u) | ((rgb >> 16) & 0xffu) | ((rgb & 0xffu) << 16);
}

bool usable(const Canvas& c) {
  return c.width > 0 && c.height > 0 && c.width <= kMaxSide && c.height <= kMaxSide &&
         c.pixels.size() >= size_t{c.width} * c.height;
}

std::optional<Rect> clip(const Rect& r, const Canvas& c) {
  const int64_t x0 = std::max<int64_t>(r.x, 0), y0 = std::max<int64_t>(r.y, 0);
  const int64_t x1 = std::min<int64_t>(int64_t{r.x} + r.width, c.width);
  const int64_t y1 = std::min<int64_t>(int64_t{r.y} + r.height, c.height);
  if (x0 >= x1 || y0 >= y1) return std::nullopt;
  return Rect{static_cast<int32_t>(x0), static_cast<int32_t>(y0), static_cast<int32_t>(x1 - x0),
              static_cast<int32_t>(y1 - y0)};
}

// An arrow for viewers that draw the pointer themselves (noVNC shows none
// without one): white inside a black edge.
constexpr const char* kArrow[] = {
    "x          ", "xx         ", "x.x        ", "x..x       ", "x...x      ", "x....x     ",
    "x.....x    ", "x......x   ", "x.......x  ", "x........x ", "x.....xxxxx", "x..x..x    ",
    "x.x x..x   ", "xx  x..x   ", "x    x..x  ", "     x..x  ", "      xx   ",
};

rfbCursorPtr make_arrow(rfbScreenInfoPtr screen) {
  std::string inside, shape;
  for (const char* row : kArrow) {
    for (const char* c = row; *c; ++c) {
      inside += *c == '.' ? 'x' : ' ';
      shape += *c == ' ' ? ' ' : 'x';
    }
  }
  const int width = static_cast<int>(std::strlen(kArrow[0]));
  const int height = static_cast<int>(std::size(kArrow));
  rfbCursorPtr arrow = rfbMakeXCursor(width, height, inside.data(), shape.data());
  if (!arrow) return nullptr;
  // Both forms now: viewer threads would otherwise build one lazily, together.
  rfbMakeRichCursorFromXCursor(screen, arrow);
  return arrow;
}

// ---- pages -------------------------------------------------------------------

enum class Arrival { kViewer, kPage, kGone };

bool wait_for(int fd, short events, int timeout_ms) {
  pollfd p{fd, events, 0};
  int n;
  do {
    n = ::poll(&p, 1, timeout_ms);
  } while (n < 0 && errno == EINTR);
  return n > 0;
}

}  // namespace

// ---- the server --------------------------------------------------------------

// What the server keeps per viewer for lossless refreshes. A viewer whose
// Tight encoding uses JPEG (or that uses ZYWRLE) gets lossy pictures while
// they change. Once the picture has been still for kLosslessDelay, the
// regions that changed since that viewer's last refresh are marked modified
// again and "owed": LibVNCServer's display hook, called on the viewer's
// sending thread just before each update is encoded, then turns JPEG off
// for that update (quality -1, ZYWRLE as ZRLE), and the display-finished
// hook turns it back on. Owed regions stay marked modified until an update
// without JPEG has sent them; a lossy update that ran across the scheduling
// marks them again.
struct ClientState {
  struct Levels {
    int tight_quality, turbo_quality, tight_compress, encoding;
  };

  std::mutex mutex;  // everything below; taken before the viewer's updateMutex
  bool whole = true;  // everything is unrefined (a new viewer, or a resize)
  Region unrefined = empty_region();  // changed since this viewer's last refresh
  Region owed = empty_region();       // scheduled for a lossless update, not yet sent
  bool lossless = false;              // the update being sent is lossless
  Levels saved{};
  pthread_t thread{};  // LibVNCServer's thread for this viewer, to join
  // A duplicate of the viewer's socket: shutting it down ends the connection
  // without touching the library's descriptor, which its threads close.
  Fd socket;
  bool started = false;

  // The doors (see accept_loop()). Under the server's clients_mutex:
  std::string address;         // as peer_address() names it
  Clock::time_point deadline;  // of its handshake
  Clock::time_point probed;    // when it was last sent a pixel again to hear from it
  bool ending = false;         // closed by the doors, not yet gone
  // Set on the viewer's input thread as it asks for pictures or sends input.
  std::atomic<bool> viewer{false};  // its handshake is over
  std::atomic<Clock::rep> last_heard{0};
};

struct VncServer::Impl {
  Impl(PictureSource& source, VncServerOptions options)
      : source(source),
        options(std::move(options)),
        throttle(this->options.password_failures, this->options.password_backoff) {}
  ~Impl();

  wire::Status configure();
  wire::Status begin();

  void picture_loop();
  bool has_viewers();
  void show(const std::vector<Rect>& damage);
  void copy(const Rect& r);
  void resize();
  void switch_framebuffer(int width, int height);
  void let_go_of_stalled_viewers();
  void note_change(const sraRegion* changed);
  void forget_refinement();
  void refresh_if_quiet();
  void join_finished_viewers();

  void accept_loop();
  void take_arrival();
  bool make_room_for(const std::string& address);
  int enforce_deadlines();
  void ask_for_word(rfbClientPtr cl);
  void reap_handshakes();
  void take_connection(Fd socket, Clock::time_point deadline);
  Arrival sniff(int fd, std::string* head) const;
  bool websocket_allowed(const std::string& head) const;
  void serve_page(int fd, const std::string& head) const;
  bool send_all(int fd, std::string_view data) const;
  void hand_to_library(int fd, Clock::time_point deadline);
  void await_current_picture();
  void end_connection(rfbClientPtr cl);
  void disconnect_viewers();

  static Impl* of(rfbClientPtr cl) { return static_cast<Impl*>(cl->screen->screenData); }
  static rfbNewClientAction on_new_client(rfbClientPtr cl);
  static void on_client_gone(rfbClientPtr cl);
  static void on_pointer(int mask, int x, int y, rfbClientPtr cl);
  static void on_key(rfbBool down, rfbKeySym keysym, rfbClientPtr cl);
  static void on_update_request(rfbClientPtr cl, rfbFramebufferUpdateRequestMsg*);
  static void heard_from(rfbClientPtr cl);
  static rfbBool check_password(rfbClientPtr cl, const char* response, int length);
  static rfbCursorPtr arrow_of(rfbClientPtr cl) { return of(cl)->arrow; }
  static void before_update(rfbClientPtr cl);
  static void after_update(rfbClientPtr cl, int result);

  PictureSource& source;
  VncServerOptions options;
  PasswordThrottle throttle;
  std::string shown;  // HOST:PORT as bound, for messages
  std::string password;
  std::array<char*, 2> password_list{};  // rfbCheckPasswordByList's list
  std::string pages_dir;                 // empty: no pages
  Listener listener;
  Fd wake;  // an eventfd, readable once stopping
  std::atomic<bool> stopping{false};

  // Viewers waiting to be greeted with a current picture (await_current_picture()).
  std::atomic<int> arriving{0};
  std::mutex shown_mutex;
  std::condition_variable shown_cv;
  uint64_t pictures_shown = 0;  // under shown_mutex

  rfbScreenInfoPtr screen = nullptr;
  rfbCursorPtr arrow = nullptr;
  // 0x00BBGGRR. Its allocation only grows (see resize()).
  std::vector<uint32_t> framebuffer;
  uint32_t capacity_width = 0, capacity_height = 0;

  // The picture thread's.
  uint64_t version = 0;
  Canvas canvas;
  Clock::time_point last_change;

  std::mutex input_mutex;    // one input call at a time into the source
  std::mutex clients_mutex;  // clients and finished; taken before a ClientState's
  std::map<rfbClientPtr, std::unique_ptr<ClientState>> clients;
  std::vector<pthread_t> finished;  // threads of viewers that left, to join

  struct Handshake {
    std::mutex mutex;
    Fd socket;  // a duplicate while it runs, to end it at its deadline or at stop
    bool done = false;
    std::thread thread;
    // The accept thread's.
    std::string address;
    Clock::time_point deadline;
    bool ended = false;  // closed by the doors
  };
  std::list<Handshake> handshakes;  // the accept thread's

  std::thread picture_thread, accept_thread;
};

wire::Status VncServer::Impl::configure() {
  if (!options.password_file.empty()) {
    auto read = read_vnc_password_file(options.password_file);
    if (!read) return read.error();
    password = std::move(*read);
    password_list[0] = password.data();
  }
  if (options.tls_cert.empty() != options.tls_key.empty()) {
    return bad_value("TLS needs both a certificate and a key");
  }
  for (const std::string* file : {&options.tls_cert, &options.tls_key}) {
    if (!file->empty() && ::access(file->c_str(), R_OK) != 0) return sys_error("TLS file " + *file);
  }
  if (!options.novnc_dir.empty()) {
    struct stat st;
    if (::stat(options.novnc_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      return bad_value("noVNC folder " + options.novnc_dir + " is not a folder");
    }
    pages_dir = options.novnc_dir;
  } else if (::access((std::string(kDefaultNovncDir) + "/vnc.html").c_str(), R_OK) == 0) {
    pages_dir = kDefaultNovncDir;
  }
  auto where = parse_host_port(options.listen);
  if (!where) return where.error();
  auto bound = listen_on(*where, options.listen, !password.empty());
  if (!bound) return bound.error();
  listener = std::move(*bound);
  const bool v6 = where->host.find(':') != std::string::npos;
  shown = (v6 ? "[" + where->host + "]" : where->host) + ":" + std::to_string(listener.port);
  wake = Fd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake.valid()) return sys_error("eventfd");
  return {};
}

wire::Status VncServer::Impl::begin() {
  static std::once_flag quiet_library;
  std::call_once(quiet_library, [] {
    rfbLog = library_log;
    rfbErr = library_error;
  });
  // As LibVNCServer's own start would: a viewer that vanished must not end the process.
  std::signal(SIGPIPE, SIG_IGN);

  std::vector<Rect> damage;
  if (!source.wait_picture(&version, &canvas, &damage, kFirstPictureWait) || !usable(canvas)) {
    canvas = Canvas{kDefaultWidth, kDefaultHeight,
                    std::vector<uint32_t>(size_t{kDefaultWidth} * kDefaultHeight, 0)};
  }
  const int width = static_cast<int>(canvas.width), height = static_cast<int>(canvas.height);
  screen = rfbGetScreen(nullptr, nullptr, width, height, 8, 3, 4);
  if (!screen) return wire::make_error(wire::Errc::kIo, "LibVNCServer could not make a screen");
  capacity_width = canvas.width;
  capacity_height = canvas.height;
  framebuffer.assign(size_t{capacity_width} * capacity_height, 0);
  copy(Rect{0, 0, width, height});
  screen->frameBuffer = reinterpret_cast<char*>(framebuffer.data());
  screen->screenData = this;
  screen->desktopName = options.desktop_name.c_str();
  screen->alwaysShared = TRUE;  // a viewer that asks for the screen alone does not push others off
  screen->maxClientWait = kClientWaitMs;
  screen->backgroundLoop = TRUE;  // a thread pair per viewer
  screen->cursor = nullptr;  // never drawn into the framebuffer; sent as a shape
  arrow = make_arrow(screen);
  screen->getCursorPtr = &Impl::arrow_of;
  screen->newClientHook = &Impl::on_new_client;
  screen->ptrAddEvent = &Impl::on_pointer;
  screen->kbdAddEvent = &Impl::on_key;
  screen->displayHook = &Impl::before_update;
  screen->displayFinishedHook = &Impl::after_update;
  if (!password.empty()) {
    screen->authPasswdData = password_list.data();
    screen->passwordCheck = &Impl::check_password;
  }
  if (!options.tls_cert.empty()) {
    screen->sslcertfile = options.tls_cert.data();
    screen->sslkeyfile = options.tls_key.data();
  }
  last_change = Clock::now();
  picture_thread = std::thread([this] { picture_loop(); });
  accept_thread = std::thread([this] { accept_loop(); });
  const std::string pages = pages_dir.empty() ? "" : " and browsers (http://" + shown + "/)";
  log_line("%s: the picture for VNC viewers%s%s", shown.c_str(), pages.c_str(),
           password.empty() ? "" : ", with a password");
  if (password.size() > 8) log_line("VNC authentication uses only the first 8 characters of the password");
  return {};
}

VncServer::Impl::~Impl() {
  stopping = true;
  {
    std::lock_guard lock(shown_mutex);  // a greeting that waits sees it
  }
  shown_cv.notify_all();
  if (wake.valid()) {
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(wake.get(), &one, sizeof one);
  }
  if (picture_thread.joinable()) picture_thread.join();
  if (accept_thread.joinable()) accept_thread.join();
  for (Handshake& h : handshakes) {
    std::lock_guard lock(h.mutex);
    if (h.socket.valid()) ::shutdown(h.socket.get(), SHUT_RDWR);
  }
  for (Handshake& h : handshakes) h.thread.join();
  if (screen) {
    disconnect_viewers();
    rfbScreenCleanup(screen);
  }
  rfbFreeCursor(arrow);
  g_server_running = false;
}

// ---- pictures ----------------------------------------------------------------

// Without viewers no picture is asked for, so that the compositor can stop
// composing; a viewer that connects gets the newest one within a frame.
void VncServer::Impl::picture_loop() {
  std::vector<Rect> damage;
  while (!stopping) {
    if (!has_viewers()) {
      wait_for(wake.get(), POLLIN, static_cast<int>(kPictureWait.count()));
    } else if (source.wait_picture(&version, &canvas, &damage, kPictureWait)) {
      show(damage);
      {
        std::lock_guard lock(shown_mutex);
        ++pictures_shown;
      }
      shown_cv.notify_all();
    } else {
      refresh_if_quiet();
    }
    join_finished_viewers();
  }
}

bool VncServer::Impl::has_viewers() {
  if (arriving.load()) return true;
  std::lock_guard lock(clients_mutex);
  return !clients.empty();
}

void VncServer::Impl::show(const std::vector<Rect>& damage) {
  if (!usable(canvas)) return;
  if (canvas.width != static_cast<uint32_t>(screen->width) ||
      canvas.height != static_cast<uint32_t>(screen->height)) {
    resize();
    return;
  }
  Region changed = empty_region();
  for (const Rect& r : damage) {
    const auto inside = clip(r, canvas);
    if (!inside) continue;
    copy(*inside);
    sraRgnOr(changed.get(), rect_region(inside->x, inside->y, inside->width, inside->height).get());
  }
  if (sraRgnEmpty(changed.get())) return;
  // Viewers may be encoding from these pixels: at worst one update tears.
  rfbMarkRegionAsModified(screen, changed.get());
  note_change(changed.get());
}

void VncServer::Impl::copy(const Rect& r) {
  for (int32_t y = r.y; y < r.y + r.height; ++y) {
    const size_t row = size_t(y) * canvas.width + size_t(r.x);
    std::transform(canvas.pixels.begin() + row, canvas.pixels.begin() + row + r.width,
                   framebuffer.begin() + row, to_framebuffer);
  }
}

// The allocation only grows: a viewer's sending thread may still hold a
// region of the old size when it takes the new framebuffer, and then reads
// stay inside it. The switch waits for every viewer's send in progress, so
// a viewer that takes nothing is let go first.
void VncServer::Impl::resize() {
  let_go_of_stalled_viewers();
  forget_refinement();
  std::vector<uint32_t> old;
  if (canvas.width > capacity_width || canvas.height > capacity_height) {
    capacity_width = std::max(capacity_width, canvas.width);
    capacity_height = std::max(capacity_height, canvas.height);
    old.swap(framebuffer);
    framebuffer.assign(size_t{capacity_width} * capacity_height, 0);
  }
  const int width = static_cast<int>(canvas.width), height = static_cast<int>(canvas.height);
  copy(Rect{0, 0, width, height});
  switch_framebuffer(width, height);
  last_change = Clock::now();
}

// What rfbNewFramebuffer does for a framebuffer of the same pixel format,
// without its flaw: it takes every open viewer's send lock, then releases
// the locks of the viewers still open when it is done, so one that closed
// meanwhile (one let go above, or one leaving) keeps its lock forever and
// its thread hangs as it ends. Here the viewers locked are the ones
// released, each held by a reference until then.
void VncServer::Impl::switch_framebuffer(int width, int height) {
  std::vector<rfbClientPtr> locked;
  rfbClientIteratorPtr it = rfbGetClientIterator(screen);
  while (rfbClientPtr cl = rfbClientIteratorNext(it)) {
    rfbIncrClientRef(cl);
    pthread_mutex_lock(&cl->sendMutex);
    locked.push_back(cl);
  }
  rfbReleaseClientIterator(it);
  pthread_mutex_lock(&screen->cursorMutex);
  screen->width = width;
  screen->height = height;
  screen->paddedWidthInBytes = width * 4;
  screen->frameBuffer = reinterpret_cast<char*>(framebuffer.data());
  screen->cursorX = std::min(screen->cursorX, width - 1);
  screen->cursorY = std::min(screen->cursorY, height - 1);
  for (rfbClientPtr cl : locked) {
    pthread_mutex_lock(&cl->updateMutex);
    sraRgnDestroy(cl->modifiedRegion);
    cl->modifiedRegion = sraRgnCreateRect(0, 0, width, height);
    sraRgnMakeEmpty(cl->copyRegion);
    cl->copyDX = cl->copyDY = 0;
    if (cl->useNewFBSize) cl->newFBSizePending = TRUE;
    pthread_cond_signal(&cl->updateCond);
    pthread_mutex_unlock(&cl->updateMutex);
    pthread_mutex_unlock(&cl->sendMutex);
    rfbDecrClientRef(cl);
  }
  pthread_mutex_unlock(&screen->cursorMutex);
}

void VncServer::Impl::let_go_of_stalled_viewers() {
  timespec deadline{};
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += kStalledViewerSeconds;
  rfbClientIteratorPtr it = rfbGetClientIterator(screen);
  while (rfbClientPtr cl = rfbClientIteratorNext(it)) {
    if (cl->state == rfbClientRec::RFB_NORMAL && !cl->useNewFBSize) {
      log_peer("viewer %s cannot follow a change of picture size; disconnecting it", cl->host);
    } else if (pthread_mutex_timedlock(&cl->sendMutex, &deadline) == 0) {
      pthread_mutex_unlock(&cl->sendMutex);
      continue;
    } else {
      log_peer("viewer %s takes no updates; disconnecting it", cl->host);
    }
    end_connection(cl);
  }
  rfbReleaseClientIterator(it);
}

void VncServer::Impl::note_change(const sraRegion* changed) {
  last_change = Clock::now();
  std::lock_guard lock(clients_mutex);
  for (auto& [cl, state] : clients) {
    std::lock_guard hold(state->mutex);
    sraRgnSubtract(state->owed.get(), changed);
    if (!state->whole) sraRgnOr(state->unrefined.get(), changed);
  }
}

// Before a resize: old regions must not reach the new framebuffer.
void VncServer::Impl::forget_refinement() {
  std::lock_guard lock(clients_mutex);
  for (auto& [cl, state] : clients) {
    std::lock_guard hold(state->mutex);
    sraRgnMakeEmpty(state->owed.get());
    sraRgnMakeEmpty(state->unrefined.get());
    state->whole = true;
  }
}

void VncServer::Impl::refresh_if_quiet() {
  if (Clock::now() - last_change < kLosslessDelay) return;
  const Region everything = rect_region(0, 0, screen->width, screen->height);
  std::lock_guard lock(clients_mutex);
  for (auto& [cl, state] : clients) {
    if (cl->preferredEncoding == -1) continue;  // its encodings are not known yet
    std::lock_guard hold(state->mutex);
    sraRegion* due = state->whole ? everything.get() : state->unrefined.get();
    const bool lossy = cl->turboQualityLevel != -1 || cl->preferredEncoding == rfbEncodingZYWRLE;
    if (lossy && !sraRgnEmpty(due)) {
      pthread_mutex_lock(&cl->updateMutex);
      sraRgnOr(cl->modifiedRegion, due);
      pthread_cond_signal(&cl->updateCond);
      pthread_mutex_unlock(&cl->updateMutex);
      sraRgnOr(state->owed.get(), due);
    }
    state->whole = false;
    sraRgnMakeEmpty(state->unrefined.get());
  }
}

void VncServer::Impl::before_update(rfbClientPtr cl) {
  auto* state = static_cast<ClientState*>(cl->clientData);
  if (!state) return;
  std::lock_guard hold(state->mutex);
  state->lossless = !sraRgnEmpty(state->owed.get());
  if (!state->lossless) return;
  state->saved = {cl->tightQualityLevel, cl->turboQualityLevel, cl->tightCompressLevel,
                  cl->preferredEncoding};
  cl->tightQualityLevel = -1;
  cl->turboQualityLevel = -1;
  if (cl->preferredEncoding == rfbEncodingZYWRLE) cl->preferredEncoding = rfbEncodingZRLE;
}

void VncServer::Impl::after_update(rfbClientPtr cl, int) {
  auto* state = static_cast<ClientState*>(cl->clientData);
  if (!state) return;
  std::lock_guard hold(state->mutex);
  pthread_mutex_lock(&cl->updateMutex);
  if (state->lossless) {
    // Levels the viewer changed meanwhile (SetEncodings) are its own.
    const ClientState::Levels& s = state->saved;
    if (cl->tightQualityLevel == -1) cl->tightQualityLevel = s.tight_quality;
    if (cl->turboQualityLevel == -1) cl->turboQualityLevel = s.turbo_quality;
    cl->tightCompressLevel = s.tight_compress;  // Tight clamps it differently without JPEG
    if (cl->preferredEncoding == rfbEncodingZRLE) cl->preferredEncoding = s.encoding;
    state->lossless = false;
    sraRgnAnd(state->owed.get(), cl->modifiedRegion);  // what is left was not sent yet
  } else if (!sraRgnEmpty(state->owed.get())) {
    sraRgnOr(cl->modifiedRegion, state->owed.get());
    pthread_cond_signal(&cl->updateCond);
  }
  pthread_mutex_unlock(&cl->updateMutex);
}

void VncServer::Impl::join_finished_viewers() {
  std::vector<pthread_t> done;
  {
    std::lock_guard lock(clients_mutex);
    done.swap(finished);
  }
  for (pthread_t t : done) pthread_join(t, nullptr);
}

// ---- viewers ---------------------------------------------------------------

rfbNewClientAction VncServer::Impl::on_new_client(rfbClientPtr cl) {
  Impl* self = of(cl);
  auto state = std::make_unique<ClientState>();
  state->socket = Fd(::fcntl(cl->sock, F_DUPFD_CLOEXEC, 0));
  state->address = peer_address(cl->sock);
  state->deadline = Clock::now() + self->options.handshake_timeout;  // hand_to_library() sets it
  cl->clientData = state.get();
  cl->clientGoneHook = &Impl::on_client_gone;
  cl->clientFramebufferUpdateRequestHook = &Impl::on_update_request;
  {
    std::lock_guard lock(self->clients_mutex);
    self->clients.emplace(cl, std::move(state));
  }
  log_peer("viewer %s connected", cl->host);
  return RFB_CLIENT_ACCEPT;
}

// On the viewer's own thread, as it ends.
void VncServer::Impl::on_client_gone(rfbClientPtr cl) {
  Impl* self = of(cl);
  std::lock_guard lock(self->clients_mutex);
  auto it = self->clients.find(cl);
  if (it == self->clients.end()) return;
  if (it->second->started) self->finished.push_back(it->second->thread);
  self->clients.erase(it);
  cl->clientData = nullptr;
  log_peer("viewer %s left", cl->host);
}

void VncServer::Impl::on_pointer(int mask, int x, int y, rfbClientPtr cl) {
  heard_from(cl);
  Impl* self = of(cl);
  {
    std::lock_guard lock(self->input_mutex);
    self->source.pointer(x, y, static_cast<uint32_t>(mask));
  }
  rfbDefaultPtrAddEvent(mask, x, y, cl);  // other viewers' pointer positions
}

void VncServer::Impl::on_key(rfbBool down, rfbKeySym keysym, rfbClientPtr cl) {
  heard_from(cl);
  Impl* self = of(cl);
  std::lock_guard lock(self->input_mutex);
  self->source.key(keysym, down != 0);
}

void VncServer::Impl::on_update_request(rfbClientPtr cl, rfbFramebufferUpdateRequestMsg*) { heard_from(cl); }

// On the viewer's input thread, which alone ends its state (on_client_gone()).
void VncServer::Impl::heard_from(rfbClientPtr cl) {
  auto* state = static_cast<ClientState*>(cl->clientData);
  if (!state) return;
  state->last_heard.store(Clock::now().time_since_epoch().count());
  state->viewer.store(true);
}

// VNC authentication, with wrong passwords counted per address: one that
// is refused is refused whatever it sends.
rfbBool VncServer::Impl::check_password(rfbClientPtr cl, const char* response, int length) {
  Impl* self = of(cl);
  const std::string address = peer_address(cl->sock);
  const auto now = Clock::now();
  if (const auto left = self->throttle.refused(address, now)) {
    log_peer("refused a password from %s: too many wrong ones (%.3g s of its back-off left)", address.c_str(),
             seconds(*left));
    return FALSE;
  }
  if (rfbCheckPasswordByList(cl, response, length)) {
    self->throttle.succeeded(address);
    return TRUE;
  }
  if (self->throttle.failed(address, now)) {
    log_door("%s sent %u wrong passwords; refusing it for %.3g s", address.c_str(), self->throttle.failures(),
             seconds(self->throttle.backoff()));
  } else {
    log_peer("wrong password from %s", address.c_str());
  }
  return FALSE;
}

void VncServer::Impl::end_connection(rfbClientPtr cl) {
  std::lock_guard lock(clients_mutex);
  auto it = clients.find(cl);
  if (it != clients.end() && it->second->socket.valid()) ::shutdown(it->second->socket.get(), SHUT_RDWR);
}

void VncServer::Impl::disconnect_viewers() {
  std::vector<pthread_t> threads;
  {
    std::lock_guard lock(clients_mutex);
    for (auto& [cl, state] : clients) {
      // Ends a send that waits on a full socket too; the viewer's threads
      // then close it and end.
      if (state->socket.valid()) ::shutdown(state->socket.get(), SHUT_RDWR);
      if (state->started) threads.push_back(state->thread);
    }
    threads.insert(threads.end(), finished.begin(), finished.end());
    finished.clear();
  }
  for (pthread_t t : threads) pthread_join(t, nullptr);
}

// ---- connections -----------------------------------------------------------

void VncServer::Impl::accept_loop() {
  pollfd fds[2] = {{listener.fd.get(), POLLIN, 0}, {wake.get(), POLLIN, 0}};
  int wait_ms = -1;
  while (!stopping) {
    if (::poll(fds, 2, wait_ms) < 0) {
      if (errno == EINTR) continue;
      log_line("accepting viewers: %s", std::strerror(errno));
      return;
    }
    if (fds[1].revents) return;
    reap_handshakes();
    if (fds[0].revents) take_arrival();
    wait_ms = enforce_deadlines();
  }
}

void VncServer::Impl::take_arrival() {
  sockaddr_storage from{};
  socklen_t size = sizeof from;
  Fd socket(::accept4(listener.fd.get(), reinterpret_cast<sockaddr*>(&from), &size, SOCK_CLOEXEC));
  if (!socket.valid()) {
    if (errno == EMFILE || errno == ENFILE) std::this_thread::sleep_for(100ms);
    return;
  }
  // LibVNCServer waits on viewers' sockets with select().
  if (socket.get() >= FD_SETSIZE - 8) {
    log_peer("too many open files to take another viewer");
    return;
  }
  const std::string address = peer_address(reinterpret_cast<const sockaddr*>(&from));
  const auto now = Clock::now();
  if (const auto left = throttle.refused(address, now)) {
    log_peer("refused a connection from %s: too many wrong passwords (%.3g s of its back-off left)",
             address.c_str(), seconds(*left));
    return;
  }
  if (!make_room_for(address)) {
    log_peer("%zu connections are being set up; refusing one from %s", VncServer::kMaxPending, address.c_str());
    return;
  }
  Handshake& h = handshakes.emplace_back();
  h.address = address;
  h.deadline = now + options.handshake_timeout;
  h.socket = Fd(::fcntl(socket.get(), F_DUPFD_CLOEXEC, 0));
  h.thread = std::thread([this, &h, s = std::move(socket)]() mutable {
    take_connection(std::move(s), h.deadline);
    std::lock_guard lock(h.mutex);
    h.socket.reset();  // the connection must end when its last real owner closes it
    h.done = true;
  });
}

// Connections not yet viewers, those of `address` at most
// kMaxPendingPerAddress: its oldest gives way to the new one, so silent
// connections cannot keep an address's viewer out. False when they are
// kMaxPending in all.
bool VncServer::Impl::make_room_for(const std::string& address) {
  size_t total = 0, mine = 0;
  Handshake* oldest_handshake = nullptr;
  ClientState* oldest_client = nullptr;
  Clock::time_point oldest = Clock::time_point::max();
  for (Handshake& h : handshakes) {
    {
      std::lock_guard lock(h.mutex);
      if (h.done || h.ended) continue;
    }
    ++total;
    if (h.address != address) continue;
    ++mine;
    if (h.deadline < oldest) std::tie(oldest, oldest_handshake) = std::tuple(h.deadline, &h);
  }
  std::lock_guard lock(clients_mutex);
  for (auto& [cl, state] : clients) {
    if (state->viewer || state->ending) continue;
    ++total;
    if (state->address != address) continue;
    ++mine;
    if (state->deadline < oldest) {
      std::tie(oldest, oldest_client) = std::tuple(state->deadline, state.get());
      oldest_handshake = nullptr;
    }
  }
  if (mine < VncServer::kMaxPendingPerAddress) return total < VncServer::kMaxPending;
  log_peer("%s has %zu connections being set up; closing its oldest for a new one", address.c_str(), mine);
  if (oldest_client) {
    oldest_client->ending = true;
    if (oldest_client->socket.valid()) ::shutdown(oldest_client->socket.get(), SHUT_RDWR);
  } else if (oldest_handshake) {
    std::lock_guard hold(oldest_handshake->mutex);
    oldest_handshake->ended = true;
    if (oldest_handshake->socket.valid()) ::shutdown(oldest_handshake->socket.get(), SHUT_RDWR);
  }
  return true;
}

// Closes connections past their handshake deadline and viewers that have
// gone quiet; a viewer quiet for half of --vnc-idle-timeout is sent one
// pixel again, which a live one answers with its next request. Returns the
// milliseconds until the next thing to check, -1 for none.
int VncServer::Impl::enforce_deadlines() {
  const auto now = Clock::now();
  auto next = Clock::time_point::max();
  const double handshake_s = seconds(options.handshake_timeout);
  for (Handshake& h : handshakes) {
    std::lock_guard lock(h.mutex);
    if (h.done || h.ended) continue;
    if (now < h.deadline) {
      next = std::min(next, h.deadline);
      continue;
    }
    log_peer("%s did not finish its handshake in %.3g s; closing it", h.address.c_str(), handshake_s);
    h.ended = true;
    if (h.socket.valid()) ::shutdown(h.socket.get(), SHUT_RDWR);
  }
  const auto idle = options.idle_timeout;
  std::lock_guard lock(clients_mutex);
  for (auto& [cl, state] : clients) {
    if (state->ending) continue;
    Clock::time_point due;
    if (!state->viewer) {
      due = state->deadline;
      if (now >= due) {
        log_peer("%s did not finish its handshake in %.3g s; closing it", state->address.c_str(), handshake_s);
      }
    } else if (idle > 0ms) {
      const Clock::time_point heard{Clock::duration(state->last_heard.load())};
      due = heard + idle;
      if (now >= due) {
        log_peer("viewer %s sent nothing for %.3g s; closing it", state->address.c_str(), seconds(idle));
      } else if (state->probed < heard) {
        if (now >= heard + idle / 2) {
          ask_for_word(cl);
          state->probed = now;
        } else {
          due = heard + idle / 2;
        }
      }
    } else {
      continue;
    }
    if (now < due) {
      next = std::min(next, due);
      continue;
    }
    state->ending = true;
    if (state->socket.valid()) ::shutdown(state->socket.get(), SHUT_RDWR);
  }
  if (next == Clock::time_point::max()) return -1;
  const auto wait = std::chrono::ceil<std::chrono::milliseconds>(next - now);
  return static_cast<int>(std::clamp<int64_t>(wait.count(), 1, 24 * 3600 * 1000));
}

// One pixel marked changed: a viewer with a request pending gets it, and
// asks again.
void VncServer::Impl::ask_for_word(rfbClientPtr cl) {
  const Region pixel = rect_region(0, 0, 1, 1);
  pthread_mutex_lock(&cl->updateMutex);
  sraRgnOr(cl->modifiedRegion, pixel.get());
  pthread_cond_signal(&cl->updateCond);
  pthread_mutex_unlock(&cl->updateMutex);
}

void VncServer::Impl::reap_handshakes() {
  for (auto it = handshakes.begin(); it != handshakes.end();) {
    bool done;
    {
      std::lock_guard lock(it->mutex);
      done = it->done;
    }
    if (!done) {
      ++it;
      continue;
    }
    it->thread.join();
    it = handshakes.erase(it);
  }
}

void VncServer::Impl::take_connection(Fd socket, Clock::time_point deadline) {
  std::string head;
  switch (sniff(socket.get(), &head)) {
    case Arrival::kGone:
      return;
    case Arrival::kPage:
      serve_page(socket.get(), head);
      return;
    case Arrival::kViewer:
      await_current_picture();
      hand_to_library(socket.release(), deadline);
      return;
  }
}

// Browsers let any site's pages open a WebSocket to any address, this
// machine's loopback included: only noVNC's pages from this server may
// (same origin), and without a password only under a loopback name, which
// a site cannot rebind its own name to. (WebSockets over TLS reach
// LibVNCServer unread; a password guards those.)
bool VncServer::Impl::websocket_allowed(const std::string& head) const {
  const std::string host = header(head, "host:"), origin = header(head, "origin:");
  if (host.empty() || (origin != "http://" + host && origin != "https://" + host)) {
    log_peer("refused a WebSocket from the pages of %s", origin.empty() ? "no origin" : origin.c_str());
    return false;
  }
  if (password.empty() && !names_loopback(host)) {
    log_peer("refused a WebSocket for %s: without a password only a loopback name is served", host.c_str());
    return false;
  }
  return true;
}

// A VNC viewer waits for the server to speak; a browser sends a request at
// once, for a page or for a WebSocket (LibVNCServer answers those, and TLS).
Arrival VncServer::Impl::sniff(int fd, std::string* head) const {
  if (!wait_for(fd, POLLIN, kSniffMs)) return Arrival::kViewer;
  constexpr std::string_view kGet = "GET ";
  const auto deadline = Clock::now() + kRequestTime;
  std::string seen(kMaxRequestHead, '\0');
  for (;;) {
    const ssize_t n = ::recv(fd, seen.data(), seen.size(), MSG_PEEK | MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return Arrival::kGone;
    const std::string_view got(seen.data(), static_cast<size_t>(std::max<ssize_t>(n, 0)));
    const std::string_view start = got.substr(0, kGet.size());
    if (start != kGet.substr(0, start.size())) return Arrival::kViewer;
    if (const size_t end = got.find("\r\n\r\n"); end != std::string_view::npos) {
      head->assign(got.substr(0, end + 4));
      return is_websocket(*head) && websocket_allowed(*head) ? Arrival::kViewer : Arrival::kPage;
    }
    if (got.size() == seen.size() || Clock::now() > deadline || stopping) return Arrival::kGone;
    // What was sent stays to be peeked at after the sender has gone.
    if (wait_for(fd, POLLRDHUP, 10)) return Arrival::kGone;
  }
}

void VncServer::Impl::serve_page(int fd, const std::string& head) const {
  // Take the request in, or closing would reset the connection under the reply.
  for (size_t taken = 0; taken < head.size();) {
    char sink[1024];
    const ssize_t n = ::recv(fd, sink, std::min(sizeof sink, head.size() - taken), MSG_DONTWAIT);
    if (n <= 0) return;
    taken += static_cast<size_t>(n);
  }
  const std::string reply = page_reply(pages_dir, head);
  if (send_all(fd, reply)) ::shutdown(fd, SHUT_WR);
}

bool VncServer::Impl::send_all(int fd, std::string_view data) const {
  const auto deadline = Clock::now() + kPageSendTime;
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      data.remove_prefix(static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
    if (stopping || Clock::now() > deadline) return false;
    wait_for(fd, POLLOUT, 100);
  }
  return true;
}

// A viewer is greeted with the picture's size as it is now. Without viewers
// nothing is composed, so the picture the first one brings on may differ
// in size from the last; a viewer that cannot follow a change of size
// (vncsnapshot) would be let go the moment it arrived.
void VncServer::Impl::await_current_picture() {
  ++arriving;
  {
    std::unique_lock lock(shown_mutex);
    const uint64_t seen = pictures_shown;
    shown_cv.wait_for(lock, kGreetingWait, [&] { return pictures_shown != seen || stopping; });
  }
  --arriving;
}

void VncServer::Impl::hand_to_library(int fd, Clock::time_point deadline) {
  rfbClientPtr cl = rfbNewClient(screen, fd);  // takes the socket; closes it on failure
  if (!cl) return;
  rfbIncrClientRef(cl);  // keeps `cl` until its thread is on record
  {
    std::lock_guard lock(clients_mutex);
    if (auto it = clients.find(cl); it != clients.end()) it->second->deadline = deadline;
  }
  rfbStartOnHoldClient(cl);
  {
    std::lock_guard lock(clients_mutex);
    if (auto it = clients.find(cl); it != clients.end()) {
      it->second->thread = cl->client_thread;
      it->second->started = true;
    }
  }
  rfbDecrClientRef(cl);
}

// ---- public --------------------------------------------------------------------

VncServer::VncServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

VncServer::~VncServer() = default;

uint16_t VncServer::port() const { return impl_->listener.port; }

wire::Result<std::unique_ptr<VncServer>> VncServer::start(PictureSource& source,
                                                         VncServerOptions options) {
  if (g_server_running.exchange(true)) return bad_value("a VNC server is running already");
  auto impl = std::make_unique<Impl>(source, std::move(options));
  WIRE_TRY(impl->configure());
  WIRE_TRY(impl->begin());
  return std::unique_ptr<VncServer>(new VncServer(std::move(impl)));
}

}  // namespace comp
