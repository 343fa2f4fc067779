package tlslab

import (
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// TestThreadMeterRead (fast tier): a metered read behaves as
// (*net.TCPConn).Read — a deadline that has passed ends a read that would
// wait (the path where the meter pauses and resumes), data comes through,
// the peer's close is io.EOF — and the meter counts CPU time on its
// goroutine, resumed after every read.
func TestThreadMeterRead(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	peer, ok := <-accepted
	if !ok {
		t.Fatal("accept failed")
	}
	defer peer.Close()

	m := newThreadMeter()
	c := m.meter(raw)
	defer c.Close()
	if _, ok := c.(*meteredConn); !ok {
		t.Fatalf("a TCP connection metered as %T", c)
	}
	buf := make([]byte, 16)
	// Nothing to read and a deadline already past: the read would wait.
	c.SetReadDeadline(time.Unix(1, 0))
	if _, err := c.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read past its deadline: %v, want os.ErrDeadlineExceeded", err)
	}
	var ne net.Error
	if _, err := c.Read(buf); !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("read past its deadline: %v, want a net.Error that is a timeout", err)
	}
	if !m.on {
		t.Fatal("the meter was not resumed after the read")
	}
	c.SetReadDeadline(time.Time{})
	if _, err := peer.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	if n, err := io.ReadFull(c, buf[:5]); err != nil || string(buf[:n]) != "hello" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	peer.Close()
	if n, err := c.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("after the peer's close: %d, %v, want 0, io.EOF", n, err)
	}
	if n, err := c.Read(nil); n != 0 || err != nil {
		t.Fatalf("an empty read: %d, %v", n, err)
	}
	if _, ok := m.elapsed(); !ok && threadCPUMethod != "not available on this OS" {
		t.Fatal("the thread CPU clock could not be read")
	}
	if cpu := m.stop(); cpu < 0 || m.on {
		t.Fatalf("stopped meter: %v, on %v", cpu, m.on)
	}
}
