// The RFB server's life (options checked, LibVNCServer's screen made,
// threads started and stopped) and its picture thread: composed pictures
// copied into the framebuffer, resizes, and lossless refreshes. The
// threads and the state they share: vnc_server_impl.h.
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <csignal>
#include <ctime>
#include <optional>

#include "vnc_server_impl.h"

namespace comp {
namespace {

constexpr auto kPictureWait = 50ms;
constexpr auto kFirstPictureWait = 200ms;
constexpr auto kLosslessDelay = 300ms;   // quiet this long: send what changed losslessly
constexpr time_t kStalledViewerSeconds = 1;  // a resize waits this long for a viewer's send
constexpr int kClientWaitMs = 5000;      // a viewer whose socket takes nothing this long is dropped
constexpr uint32_t kMaxSide = 16384;
constexpr uint32_t kDefaultWidth = 640, kDefaultHeight = 480;
constexpr const char* kDefaultNovncDir = "/usr/share/novnc";

// LibVNCServer keeps its client list lock in a global that rfbGetScreen
// initializes again.
std::atomic<bool> g_server_running{false};

void library_log(const char*, ...) {}

void library_error(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string text = wire::format_text(format, args);
  va_end(args);
  // Wrong passwords are told by check_password().
  if (text.find("authentication failed") != std::string::npos || text.find("password check failed") != std::string::npos)
    return;
  log_peer("%s", text.c_str());
}

using wire::Fd;

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

}  // namespace

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
