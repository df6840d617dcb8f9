// What the RFB server's three files share (vnc_server.cpp: its life and
// the picture thread; vnc_viewers.cpp: LibVNCServer's viewer callbacks;
// vnc_accept.cpp: the accept thread and its doors): the server's state,
// each viewer's, and the log lines viewers may cause, on a budget. Private
// to the compositor library.
//
// Threads:
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
#pragma once

#include <poll.h>
#include <pthread.h>
#include <rfb/rfb.h>
extern "C" {
#include <rfb/rfbregion.h>  // declared without C linkage
}

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "comp/vnc_server.h"
#include "vnc_doors.h"
#include "vnc_net.h"
#include "wire/fd.h"
#include "wire/log_line.h"

namespace comp {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// ---- log lines ---------------------------------------------------------------

constexpr int kMaxPeerLogsPerMinute = 30;

inline void vlog(const char* format, va_list args) {
  wire::write_line("conduit host: vnc", wire::format_text(format, args));
}

[[gnu::format(printf, 1, 2)]] inline void log_line(const char* format, ...) {
  va_list args;
  va_start(args, format);
  vlog(format, args);
  va_end(args);
}

// At most kMaxPeerLogsPerMinute lines a minute from one budget; the next
// line let through after a full minute says how many were not.
class LogBudget {
 public:
  bool allows() {
    uint64_t dropped = 0;
    if (!limiter_.allow(&dropped)) return false;
    if (dropped) log_line("%llu viewer messages were not shown", static_cast<unsigned long long>(dropped));
    return true;
  }

 private:
  wire::RateLimiter limiter_{kMaxPeerLogsPerMinute, 1min};
};

// Viewers (anyone who can connect) decide how often these happen; an
// address refused for its wrong passwords is told from a budget of its
// own (g_door_budget.allows() before log_line()), so that a flood of other
// messages does not hide it.
inline LogBudget g_peer_budget, g_door_budget;

[[gnu::format(printf, 1, 2)]] inline void log_peer(const char* format, ...) {
  if (!g_peer_budget.allows()) return;
  va_list args;
  va_start(args, format);
  vlog(format, args);
  va_end(args);
}

inline double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// ---- regions and sockets -----------------------------------------------------

using Region = std::unique_ptr<sraRegion, decltype(&sraRgnDestroy)>;

inline Region empty_region() { return Region(sraRgnCreate(), &sraRgnDestroy); }

inline Region rect_region(int x, int y, int width, int height) {
  return Region(sraRgnCreateRect(x, y, x + width, y + height), &sraRgnDestroy);
}

// False when `timeout_ms` passed first.
inline bool wait_for(int fd, short events, int timeout_ms) {
  pollfd p{fd, events, 0};
  int n;
  do {
    n = ::poll(&p, 1, timeout_ms);
  } while (n < 0 && errno == EINTR);
  return n > 0;
}

// What a new connection turned out to be (vnc_accept.cpp).
enum class Arrival { kViewer, kPage, kGone };

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
  wire::Fd socket;
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

  // The life of the server (vnc_server.cpp).
  wire::Status configure();
  wire::Status begin();

  // The picture thread (vnc_server.cpp).
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

  // The accept thread and its handshake threads (vnc_accept.cpp).
  void accept_loop();
  void take_arrival();
  bool make_room_for(const std::string& address);
  int enforce_deadlines();
  void ask_for_word(rfbClientPtr cl);
  void reap_handshakes();
  void take_connection(wire::Fd socket, Clock::time_point deadline);
  Arrival sniff(int fd, std::string* head) const;
  bool websocket_allowed(const std::string& head) const;
  void serve_page(int fd, const std::string& head) const;
  bool send_all(int fd, std::string_view data) const;
  void hand_to_library(int fd, Clock::time_point deadline);
  void await_current_picture();
  // Ending viewers (vnc_viewers.cpp).
  void end_connection(rfbClientPtr cl);
  void disconnect_viewers();

  // LibVNCServer's callbacks: viewers (vnc_viewers.cpp), and the hooks
  // around each update (vnc_server.cpp).
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
  wire::Fd wake;  // an eventfd, readable once stopping
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
    wire::Fd socket;  // a duplicate while it runs, to end it at its deadline or at stop
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

}  // namespace comp
