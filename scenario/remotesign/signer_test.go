package remotesign

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/scheme"
)

func signSchemes(t testing.TB, names ...string) []scheme.SignScheme {
	t.Helper()
	var out []scheme.SignScheme
	for _, n := range names {
		s, err := scheme.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s.(scheme.SignScheme))
	}
	return out
}

// Every default scheme's split signer (hash, then the private-key
// operation on the digest) makes signatures the scheme's own Verify — the
// one its known-answer test vouches for — accepts for the document and
// rejects for another; the public key survives its SubjectPublicKeyInfo.
func TestSplitSignerAgreesWithScheme(t *testing.T) {
	doc := Document(3000, 1)
	for _, s := range signSchemes(t, DefaultSchemes...) {
		t.Run(s.Info().Name, func(t *testing.T) {
			t.Parallel()
			k, err := NewKey(s)
			if err != nil {
				t.Fatal(err)
			}
			sig, err := k.Sign(doc)
			if err != nil {
				t.Fatal(err)
			}
			pub, err := x509.ParsePKIXPublicKey(k.PublicDER)
			if err != nil {
				t.Fatalf("SubjectPublicKeyInfo: %v", err)
			}
			if !reflect.DeepEqual(pub, k.Public) {
				t.Fatalf("the public key does not survive its encoding")
			}
			if !s.Verify(pub, doc, sig.Bytes) {
				t.Fatal("the signature does not verify with the scheme's Verify")
			}
			if s.Verify(pub, doc[1:], sig.Bytes) {
				t.Fatal("the signature verifies for another document")
			}
			if (k.Hash == 0) != (s.Info().Name == "Ed25519") {
				t.Errorf("hash %v: only Ed25519 hashes inside signing", k.Hash)
			}
			if k.Hash != 0 && sig.Hash <= 0 || sig.Sign <= 0 {
				t.Errorf("timings hash %v sign %v", sig.Hash, sig.Sign)
			}
		})
	}
}

// An independent implementation agrees: OpenSSL verifies the signer's
// signatures of every key type and padding with the SubjectPublicKeyInfo
// the signer sends (the DSA encoding is written here, not by crypto/x509).
func TestOpenSSLVerifiesSignatures(t *testing.T) {
	openssl := needOpenSSL(t)
	dir := t.TempDir()
	doc := Document(5000, 2)
	docFile := filepath.Join(dir, "doc")
	if err := os.WriteFile(docFile, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, s := range signSchemes(t, "RSA-2048-PKCS1v15-SHA256", "RSA-2048-PSS-SHA256", "DSA-2048-256-SHA256",
		"ECDSA-P256-SHA256", "ECDSA-P384-SHA384", "ECDSA-P521-SHA512", "Ed25519") {
		name := s.Info().Name
		k, err := NewKey(s)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := k.Sign(doc)
		if err != nil {
			t.Fatal(err)
		}
		pubFile, sigFile := filepath.Join(dir, name+".pem"), filepath.Join(dir, name+".sig")
		os.WriteFile(pubFile, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: k.PublicDER}), 0o600)
		os.WriteFile(sigFile, sig.Bytes, 0o600)
		verify := func(file string) *exec.Cmd {
			var args []string
			switch {
			case name == "Ed25519":
				args = []string{"pkeyutl", "-verify", "-pubin", "-inkey", pubFile, "-rawin", "-in", file, "-sigfile", sigFile}
			default:
				args = []string{"dgst", "-" + strings.ToLower(strings.ReplaceAll(k.Hash.String(), "-", "")), "-verify", pubFile, "-signature", sigFile}
				if strings.Contains(name, "PSS") {
					args = append(args, "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32")
				}
				args = append(args, file)
			}
			return exec.Command(openssl, args...)
		}
		if out, err := verify(docFile).CombinedOutput(); err != nil {
			t.Errorf("%s: openssl rejects the signature: %v\n%s", name, err, out)
		}
		other := filepath.Join(dir, "other")
		os.WriteFile(other, append(bytes.Clone(doc), 0), 0o600)
		if out, err := verify(other).CombinedOutput(); err == nil {
			t.Errorf("%s: openssl accepts the signature for another document:\n%s", name, out)
		}
	}
}

func needOpenSSL(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("openssl")
	if err != nil {
		// scripts/deps/remotesign.txt installs it: a test that cannot run
		// its independent peer fails loudly.
		t.Fatalf("OpenSSL is needed (scripts/test installs it): %v", err)
	}
	return p
}

// An independent TLS stack talks to the signer: OpenSSL's s_client
// verifies the signer's certificate, sends a KeyRequest and a SignRequest
// written by this package, and gets back frames that parse and a
// signature that verifies.
func TestOpenSSLClientTalksToSigner(t *testing.T) {
	openssl := needOpenSSL(t)
	signer, err := NewSigner(signSchemes(t, "ECDSA-P256-SHA256"))
	if err != nil {
		t.Fatal(err)
	}
	serverTLS, _, _, err := tlsIdentity()
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{Signer: signer, TLS: serverTLS, IdleTimeout: time.Second}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	dir := t.TempDir()
	ca := filepath.Join(dir, "signer.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: serverTLS.Certificates[0].Certificate[0]}), 0o600)
	doc := Document(2000, 3)
	kr, _ := KeyRequest{Scheme: "ECDSA-P256-SHA256"}.Marshal()
	sr, _ := SignRequest{ID: 42, Scheme: "ECDSA-P256-SHA256", Document: doc}.Marshal()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, openssl, "s_client", "-connect", ln.Addr().String(), "-CAfile", ca,
		"-servername", "signer.invalid", "-verify_return_error", "-tls1_3", "-quiet", "-ign_eof")
	cmd.Stdin = bytes.NewReader(append(kr, sr...))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("s_client: %v\n%s", err, stderr.String())
	}
	r := bytes.NewReader(out)
	m, err := ReadMessage(r, 1<<20)
	if err != nil {
		t.Fatalf("KeyResponse: %v (s_client: %s)", err, stderr.String())
	}
	pub, err := x509.ParsePKIXPublicKey(m.(KeyResponse).PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	m, err = ReadMessage(r, 1<<20)
	if err != nil {
		t.Fatalf("SignResponse: %v", err)
	}
	resp := m.(SignResponse)
	if resp.ID != 42 || !signSchemes(t, "ECDSA-P256-SHA256")[0].Verify(pub, doc, resp.Signature) {
		t.Fatalf("response %d: the signature does not verify", resp.ID)
	}
}
