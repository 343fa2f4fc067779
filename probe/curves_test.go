package probe

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// ecdsaCert writes a self-signed ECDSA certificate on curve (an OpenSSL
// name: P-256, P-384) and its key, made by openssl itself.
func ecdsaCert(t *testing.T, curve string) (cert, key string) {
	t.Helper()
	dir := t.TempDir()
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	out, err := exec.Command("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:"+curve,
		"-nodes", "-keyout", key, "-out", cert, "-subj", "/CN=localhost", "-days", "3650").CombinedOutput()
	if err != nil {
		t.Fatalf("openssl req: %v\n%s", err, out)
	}
	return cert, key
}

// sClientCurve is the curve s_client's handshake used ("Server Temp Key",
// OpenSSL's name), offering groups in that order, TLS 1.2 ECDHE-ECDSA;
// "" when the handshake failed.
func sClientCurve(t *testing.T, addr, groups string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "openssl", "s_client", "-connect", addr, "-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256",
		"-groups", groups)
	cmd.Stdin = strings.NewReader("")
	out, _ := cmd.CombinedOutput()
	m := regexp.MustCompile(`Server Temp Key: (?:ECDH, )?([A-Za-z0-9-]+),`).FindSubmatch(out)
	if m == nil {
		return ""
	}
	return string(m[1])
}

// opensslToTLS maps s_client's curve names to the probe's (IANA) names.
var opensslToTLS = map[string]string{"X25519": "x25519", "X448": "x448", "prime256v1": "secp256r1",
	"secp384r1": "secp384r1", "secp521r1": "secp521r1"}

// TestTLS12CurvesWithECDSACertificate (full tier: OpenSSL processes):
// issue 15. With an ECDSA certificate, TLS 1.2's supported_groups also
// limits the certificate's curve (RFC 8422 §5.1), so the scan must keep
// that curve in its offers. s_client, asking about each curve beside the
// certificate's, is the independent count.
func TestTLS12CurvesWithECDSACertificate(t *testing.T) {
	needOpenSSL(t)
	t.Parallel()
	for _, certCurve := range []string{"P-256", "P-384"} {
		t.Run(certCurve, func(t *testing.T) {
			t.Parallel()
			cert, key := ecdsaCert(t, certCurve)
			addr := startOpenSSL(t, "-cert", cert, "-key", key, "-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256")
			var want []string
			for _, g := range []string{"X25519", "P-256", "X448", "P-521", "P-384"} {
				offer := g + ":" + certCurve
				if g == certCurve {
					offer = g
				}
				used := sClientCurve(t, addr, offer)
				if name, ok := opensslToTLS[used]; ok && !slices.Contains(want, name) {
					want = append(want, name)
				} else if !ok && used != "" {
					t.Fatalf("s_client: unknown curve name %q", used)
				}
			}
			if len(want) < 3 {
				t.Fatalf("s_client found only %v: the fixture is wrong", want)
			}
			r := runProbe(t, addr, Options{Versions: []Version{TLS12}, Suites: []uint16{0xc02b}, Tries: 1})
			got := groupNames(r.KeyExchange.TLS12Curves)
			slices.Sort(got)
			slices.Sort(want)
			check(t, "TLS 1.2 curves (probe vs s_client)", got, want)
			if len(r.KeyExchange.Errors) > 0 {
				t.Errorf("key exchange notes: %q", r.KeyExchange.Errors)
			}
		})
	}
}
