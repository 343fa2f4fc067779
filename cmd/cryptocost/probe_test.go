package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/probe"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["probeserver"] = probeServer
	scriptCmds["checkprobe"] = checkProbe
}

// probeserver NAME tls13|tls12: start a crypto/tls server on loopback for
// the rest of the script and put its HOST:PORT in $NAME. tls13 is Go's
// default server (TLS 1.2 and 1.3, hybrid ML-KEM groups); tls12 accepts
// TLS 1.2 only.
func probeServer(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: probeserver NAME tls13|tls12")
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ts.Check(err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), NotAfter: time.Date(2035, 1, 1, 0, 0, 0, 0, time.UTC),
		DNSNames: []string{"localhost"}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	ts.Check(err)
	cfg := &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	switch args[1] {
	case "tls13":
	case "tls12":
		cfg.MaxVersion = tls.VersionTLS12
	default:
		ts.Fatalf("probeserver: unknown kind %q", args[1])
	}
	l, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	ts.Check(err)
	ts.Defer(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(20 * time.Second))
				io.Copy(io.Discard, c)
			}()
		}
	}()
	ts.Setenv(args[0], l.Addr().(*net.TCPAddr).String())
}

// checkprobe FILE STATUS [VERSION...]: FILE is a probe report (schema
// cryptocost/probe/v1) with that status, accepting exactly these versions,
// with at least one measured handshake carrying a packet trace.
func checkProbe(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: checkprobe FILE STATUS [VERSION...]")
	}
	reps, err := probe.ReadJSON(strings.NewReader(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	r := reps[0]
	var accepted []string
	for _, v := range r.Versions {
		if v.Accepted {
			accepted = append(accepted, strings.TrimPrefix(v.Version.String(), "TLS "))
		}
	}
	traced := false
	for _, res := range r.Run.Results {
		traced = traced || (res.Trace != nil && len(res.Trace.Packets) > 0)
	}
	ok := string(r.Status) == args[1] && strings.Join(accepted, " ") == strings.Join(args[2:], " ") && traced
	if ok == neg {
		ts.Fatalf("%s: status %s, versions %v, traced %v; want status %s, versions %v", args[0], r.Status, accepted, traced, args[1], args[2:])
	}
}
