package procnet

import (
	"net"
	"os"
	"testing"
)

// This process's listener is its own; a port nobody listens on is no
// one's. Fast tier.
func TestListening(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ok, err := Listening(os.Getpid(), port)
	if err == ErrUnsupported {
		t.Skip(err)
	}
	if err != nil || !ok {
		t.Fatalf("our listener on %d: %v, %v", port, ok, err)
	}
	if ok, _ := Listening(os.Getppid(), port); ok {
		t.Errorf("the parent process listens on our port %d", port)
	}
	ln.Close()
	if ok, _ := Listening(os.Getpid(), port); ok {
		t.Errorf("closed listener on %d still listening", port)
	}
	// An IPv6 (dual-stack) listener, as s_server's "-accept PORT" opens.
	ln6, err := net.Listen("tcp", "[::]:0")
	if err != nil {
		t.Skipf("no IPv6 here: %v", err)
	}
	defer ln6.Close()
	if ok, err := Listening(os.Getpid(), ln6.Addr().(*net.TCPAddr).Port); !ok || err != nil {
		t.Errorf("our [::] listener: %v, %v", ok, err)
	}
}
