// A deterministic legacy OpenGL frame through GLX: display lists (built
// with immediate mode and called through glCallLists with glListBase),
// fixed-function client arrays (glDrawArrays, glDrawElements,
// glInterleavedArrays), lighting and flat/smooth shading. It renders the
// same frame a few times, prints "ready 0x<window>" once the last frame
// was swapped and finished, and holds the window until killed or
// --hold seconds pass, so the window can be captured. With --front 1 it then
// draws the frame again straight into the front buffer with a selection
// outline over it, and flushes, as programs drawing into the front do.
//
// usage: legacy-gl-demo [--hold SECONDS] [--frames N] [--front 1]
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr int kSize = 256;

// Three display lists: a lit square made in immediate mode, a smooth
// coloured triangle, and a small "glyph" that translates after itself.
GLuint build_lists() {
  const GLuint base = glGenLists(3);
  glNewList(base, GL_COMPILE);
  glBegin(GL_QUADS);
  glNormal3f(0.0f, 0.0f, 1.0f);
  glVertex2f(-0.25f, -0.25f);
  glVertex2f(0.25f, -0.25f);
  glVertex2f(0.25f, 0.25f);
  glVertex2f(-0.25f, 0.25f);
  glEnd();
  glEndList();

  glNewList(base + 1, GL_COMPILE);
  glShadeModel(GL_SMOOTH);
  glBegin(GL_TRIANGLES);
  glColor3ub(255, 0, 0);
  glVertex2f(-0.3f, -0.25f);
  glColor3ub(0, 255, 0);
  glVertex2f(0.3f, -0.25f);
  glColor3ub(0, 0, 255);
  glVertex2f(0.0f, 0.3f);
  glEnd();
  glEndList();

  glNewList(base + 2, GL_COMPILE);
  glRectf(0.0f, 0.0f, 0.08f, 0.12f);
  glTranslatef(0.12f, 0.0f, 0.0f);
  glEndList();
  return base;
}

void draw_lit_square(GLuint base) {
  const GLfloat light_pos[] = {0.5f, 0.5f, 1.0f, 0.0f};
  const GLfloat diffuse[] = {0.9f, 0.7f, 0.2f, 1.0f};
  glEnable(GL_LIGHTING);
  glEnable(GL_LIGHT0);
  glLightfv(GL_LIGHT0, GL_POSITION, light_pos);
  glMaterialfv(GL_FRONT_AND_BACK, GL_AMBIENT_AND_DIFFUSE, diffuse);
  glPushMatrix();
  glTranslatef(-0.55f, 0.55f, 0.0f);
  glRotatef(20.0f, 0.0f, 0.0f, 1.0f);
  glCallList(base);
  glPopMatrix();
  glDisable(GL_LIGHTING);
}

void draw_client_arrays() {
  static const GLfloat vertices[] = {0.2f, 0.3f, 0.9f, 0.3f, 0.9f, 0.9f, 0.2f, 0.9f};
  static const GLubyte colors[] = {255, 255, 0, 255, 0, 255, 255, 255, 255, 0, 255, 255, 40, 40, 40, 255};
  glEnableClientState(GL_VERTEX_ARRAY);
  glEnableClientState(GL_COLOR_ARRAY);
  glVertexPointer(2, GL_FLOAT, 0, vertices);
  glColorPointer(4, GL_UNSIGNED_BYTE, 0, colors);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);

  // Indexed: a strided array of (x, y, grey) triples.
  static const GLfloat strided[] = {-0.9f, -0.9f, 0.2f, -0.4f, -0.9f, 0.5f, -0.4f, -0.4f, 0.8f,
                                    -0.9f, -0.4f, 1.0f, -0.65f, -0.2f, 0.3f};
  static const GLushort indices[] = {0, 1, 2, 0, 2, 3, 3, 2, 4};
  glDisableClientState(GL_COLOR_ARRAY);
  glColor3f(0.3f, 0.6f, 0.9f);
  glVertexPointer(2, GL_FLOAT, 3 * sizeof(GLfloat), strided);
  glDrawElements(GL_TRIANGLES, 9, GL_UNSIGNED_SHORT, indices);
  glDisableClientState(GL_VERTEX_ARRAY);

  // Interleaved colour + position.
  static const GLfloat c3f_v3f[] = {1.0f, 0.5f, 0.0f, 0.3f, -0.9f, 0.0f, 0.0f, 0.5f, 1.0f, 0.9f, -0.9f, 0.0f,
                                    0.5f, 1.0f, 0.5f, 0.6f, -0.5f, 0.0f};
  glInterleavedArrays(GL_C3F_V3F, 0, c3f_v3f);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glDisableClientState(GL_COLOR_ARRAY);
  glDisableClientState(GL_VERTEX_ARRAY);
}

void draw_glyph_row(GLuint base) {
  // glCallLists with byte offsets from glListBase: lists base+1 and base+2.
  static const GLubyte row[] = {2, 2, 2, 2, 2};
  glColor3f(1.0f, 1.0f, 1.0f);
  glPushMatrix();
  glTranslatef(-0.3f, -0.2f, 0.0f);
  glListBase(base);
  glCallLists(5, GL_UNSIGNED_BYTE, row);
  glPopMatrix();
  static const GLuint tri[] = {1};
  glPushMatrix();
  glTranslatef(0.0f, 0.1f, 0.0f);
  glScalef(0.6f, 0.6f, 1.0f);
  glCallLists(1, GL_UNSIGNED_INT, tri);
  glPopMatrix();
  glListBase(0);
}

void draw_frame(GLuint base) {
  glViewport(0, 0, kSize, kSize);
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  glOrtho(-1.0, 1.0, -1.0, 1.0, -1.0, 1.0);
  glMatrixMode(GL_MODELVIEW);
  glLoadIdentity();
  glClearColor(0.1f, 0.1f, 0.15f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  draw_lit_square(base);
  draw_client_arrays();
  draw_glyph_row(base);
  // Flat-shaded immediate-mode strip along the bottom.
  glShadeModel(GL_FLAT);
  glBegin(GL_TRIANGLE_STRIP);
  for (int i = 0; i <= 8; ++i) {
    glColor3f(i / 8.0f, 1.0f - i / 8.0f, 0.5f);
    glVertex2f(-0.95f + i * 0.2375f, i % 2 ? -0.98f : -0.93f);
  }
  glEnd();
  glShadeModel(GL_SMOOTH);
}

// The frame and a dashed selection rectangle with a filled handle, straight
// into the front buffer (what the window shows), flushed there. The whole
// frame is drawn: what a front holds after a swap differs between drivers
// (Mesa's software rasterizer on X starts its front empty).
void draw_into_front(GLuint base) {
  glDrawBuffer(GL_FRONT);
  draw_frame(base);
  glDisable(GL_DEPTH_TEST);
  glColor3f(1.0f, 0.2f, 0.6f);
  glEnable(GL_LINE_STIPPLE);
  glLineStipple(2, 0x0F0F);
  glBegin(GL_LINE_LOOP);
  glVertex2f(-0.7f, -0.6f);
  glVertex2f(0.6f, -0.6f);
  glVertex2f(0.6f, 0.7f);
  glVertex2f(-0.7f, 0.7f);
  glEnd();
  glDisable(GL_LINE_STIPPLE);
  glRectf(0.55f, -0.65f, 0.65f, -0.55f);
  glFlush();
  glDrawBuffer(GL_BACK);
  glEnable(GL_DEPTH_TEST);
}

}  // namespace

int main(int argc, char** argv) {
  int hold = 30, frames = 3, front = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--hold")) hold = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--frames")) frames = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--front")) front = std::atoi(argv[i + 1]);
  }
  Display* dpy = XOpenDisplay(nullptr);
  if (!dpy) {
    std::fprintf(stderr, "legacy-gl-demo: cannot open the X display\n");
    return 1;
  }
  int attribs[] = {GLX_RGBA, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, GLX_DEPTH_SIZE, 16,
                   GLX_DOUBLEBUFFER, None};
  XVisualInfo* vi = glXChooseVisual(dpy, DefaultScreen(dpy), attribs);
  if (!vi) {
    std::fprintf(stderr, "legacy-gl-demo: no RGB double-buffered visual\n");
    return 1;
  }
  XSetWindowAttributes swa{};
  swa.colormap = XCreateColormap(dpy, RootWindow(dpy, vi->screen), vi->visual, AllocNone);
  swa.event_mask = StructureNotifyMask;
  Window win = XCreateWindow(dpy, RootWindow(dpy, vi->screen), 0, 0, kSize, kSize, 0, vi->depth, InputOutput,
                             vi->visual, CWColormap | CWEventMask, &swa);
  XStoreName(dpy, win, "legacy-gl-demo");
  XMapWindow(dpy, win);
  for (XEvent ev;;) {
    XNextEvent(dpy, &ev);
    if (ev.type == MapNotify) break;
  }
  GLXContext ctx = glXCreateContext(dpy, vi, nullptr, True);
  if (!ctx || !glXMakeCurrent(dpy, win, ctx)) {
    std::fprintf(stderr, "legacy-gl-demo: cannot make a GLX context current\n");
    return 1;
  }
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  const GLuint base = build_lists();
  for (int i = 0; i < frames; ++i) {
    draw_frame(base);
    glXSwapBuffers(dpy, win);
  }
  if (front) draw_into_front(base);
  glFinish();
  XSync(dpy, False);
  const GLenum error = glGetError();
  if (error != GL_NO_ERROR) std::fprintf(stderr, "legacy-gl-demo: GL error 0x%x\n", error);
  std::printf("ready 0x%lx\n", win);
  std::fflush(stdout);
  sleep(static_cast<unsigned>(hold));
  glDeleteLists(base, 3);
  glXMakeCurrent(dpy, None, nullptr);
  glXDestroyContext(dpy, ctx);
  XFree(vi);
  XDestroyWindow(dpy, win);
  XCloseDisplay(dpy);
  return error == GL_NO_ERROR ? 0 : 2;
}
