package tlslab

import (
	"io"
	"net"
	"net/netip"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// processCPU reads another process's CPU-time clock: clock_gettime(2) with
// the clock id MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) = (^pid << 3) | 2
// (Linux include/linux/posix-timers.h, what clock_getcpuclockid(3)
// returns): the scheduler's nanosecond runtime of all its threads.
func processCPU(pid int) (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(int32((^pid)<<3|2), &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// threadCPU reads the calling thread's CPU clock
// (CLOCK_THREAD_CPUTIME_ID); callers lock their goroutine to the thread.
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

const processCPUMethod = "the peer process's CPU-time clock (clock_gettime of clock_getcpuclockid(pid)), " +
	"from the relay's accept to the end of the connection, plus getrusage at exit for a client process"
const threadCPUMethod = "the peer goroutine's thread CPU clock (CLOCK_THREAD_CPUTIME_ID), summed over the spans it runs locked to its OS thread " +
	"(it lets the thread go while a read waits for the network); excludes the Go runtime's background GC work"

// read reads c as (*net.TCPConn).Read does, with m counting: the read
// system call runs in a span; when it would block (EAGAIN), m pauses
// while the runtime's poller waits, and resumes when the goroutine is run
// again. Deadlines hold as they do for Read.
func (m *threadMeter) read(c *net.TCPConn, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	rc, err := c.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		m.resume()
		for {
			n, rerr = unix.Read(int(fd), p)
			if rerr != unix.EINTR {
				break
			}
		}
		if rerr == unix.EAGAIN {
			m.pause()
			return false // wait for data
		}
		return true
	})
	m.resume() // a deadline ends the wait paused
	switch {
	case err != nil:
		return 0, &net.OpError{Op: "read", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
	case rerr != nil:
		return 0, &net.OpError{Op: "read", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: os.NewSyscallError("read", rerr)}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// connectLocked is a net.Dialer Control for a goroutine locked to its
// thread (a running threadMeter): it connects the socket itself and waits
// for the connection in poll(2), a system call that costs its thread no
// CPU time, rather than letting net's dialer park the goroutine on the
// runtime's poller — a locked goroutine that parks costs a hand-off of
// its P to its thread and back (stoplockedm/startlockedm, two futex
// wake-ups), and on loopback a connect always waits (EINPROGRESS) for a
// few microseconds. The dialer's own connect then finds the socket
// connected (EISCONN) and skips its wait, its deadline timer and its
// context watch. It waits at most connectSpin; a connection still in
// progress then is left to the dialer as usual, as is any error.
func connectLocked(network, address string, rc syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !ap.Addr().Is4() {
		return nil // the dialer connects as usual
	}
	sa := &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}
	var cerr error
	if err := rc.Control(func(fd uintptr) {
		switch err := unix.Connect(int(fd), sa); err {
		case nil:
		case unix.EINPROGRESS:
			pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
			for {
				if _, err := unix.Poll(pfd, int(connectSpin/time.Millisecond)); err != unix.EINTR {
					break
				}
			}
		default:
			cerr = os.NewSyscallError("connect", err)
		}
	}); err != nil {
		return err
	}
	return cerr
}

// connectSpin bounds connectLocked's wait.
const connectSpin = 100 * time.Millisecond
