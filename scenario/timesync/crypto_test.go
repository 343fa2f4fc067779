package timesync

import (
	"bytes"
	cryptorand "crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/internal/testtier"
)

// needOpenSSL: a full-tier test with OpenSSL as the independent peer
// (scripts/deps/timesync.txt).
func needOpenSSL(t *testing.T) string {
	t.Helper()
	return testtier.RequireTool(t, "openssl", "openssl")
}

// Every suite passes its known-answer test, and the benchmarking-only
// curves' tests can fail: a wrong constant or a wrong nonce is caught.
func TestSuiteKATs(t *testing.T) {
	for _, s := range Suites() {
		if err := s.KAT(); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
	}
	bad := Secp160r1
	p := *bad.Params
	p.B = new(big.Int).Add(p.B, big.NewInt(1))
	bad.Params = &p
	if err := CheckCurve(bad); err == nil {
		t.Error("a curve with a wrong b passes CheckCurve")
	}
	k := InsecureKeyFromScalar(Secp160r1, decInt("971761939728640320549601132085879836204587084162"))
	h := sha256.Sum256([]byte("abc"))
	r, s, err := k.SignWithNonce(h[:], big.NewInt(12345))
	if err != nil || !k.verify(h[:], r, s, Secp160r1.Params) || k.verify(h[:], s, r, Secp160r1.Params) {
		t.Error("sign/verify with a chosen nonce")
	}
}

// OpenSSL knows the SEC 2 curves: its explicit parameters are ours, it
// verifies our signatures, and we verify its.
func TestSEC2AgainstOpenSSL(t *testing.T) {
	openssl := needOpenSSL(t)
	dir := t.TempDir()
	hexRE := regexp.MustCompile(`[0-9a-f]{2}`)
	field := func(text, name string) *big.Int {
		// "Prime:\n    00:ff:...\nA:" → the hex bytes after name up to the
		// next unindented line.
		i := strings.Index(text, name+":")
		if i < 0 {
			t.Fatalf("no %s in\n%s", name, text)
		}
		var hex strings.Builder
		for _, line := range strings.Split(text[i+len(name)+1:], "\n")[1:] {
			if !strings.HasPrefix(line, " ") {
				break
			}
			hex.WriteString(strings.Join(hexRE.FindAllString(line, -1), ""))
		}
		return hexInt(hex.String())
	}
	for _, c := range []SEC2Curve{Secp128r1, Secp160r1, Secp192r1} {
		name := c.Params.Name
		osslName := name
		if name == "secp192r1" {
			osslName = "prime192v1"
		}
		out, err := exec.Command(openssl, "ecparam", "-name", osslName, "-param_enc", "explicit", "-text", "-noout").CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		text := string(out)
		gen := field(text, "Generator (uncompressed)")
		size := (c.Params.P.BitLen() + 7) / 8
		wantGen := new(big.Int).SetBytes(append(append([]byte{4}, c.Params.Gx.FillBytes(make([]byte, size))...), c.Params.Gy.FillBytes(make([]byte, size))...))
		three := big.NewInt(3)
		for _, f := range []struct {
			name      string
			got, want *big.Int
		}{
			{"Prime", field(text, "Prime"), c.Params.P},
			{"A", field(text, "A"), new(big.Int).Sub(c.Params.P, three)},
			{"B", field(text, "B"), c.Params.B},
			{"Generator", gen, wantGen},
			{"Order", field(text, "Order"), c.Params.N},
		} {
			if f.got.Cmp(f.want) != 0 {
				t.Errorf("%s: %s %x, OpenSSL says %x", name, f.name, f.want, f.got)
			}
		}

		// OpenSSL verifies our signature of a SHA-256 digest.
		key, err := GenerateInsecureKey(c, cryptorand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		digest := sha256.Sum256([]byte("cryptocost " + name))
		raw, err := key.SignDigest(digest[:])
		if err != nil {
			t.Fatal(err)
		}
		n := c.ScalarBytes()
		der, _ := asn1.Marshal(struct{ R, S *big.Int }{new(big.Int).SetBytes(raw[:n]), new(big.Int).SetBytes(raw[n:])})
		pubFile, sigFile, dgFile := filepath.Join(dir, name+".pem"), filepath.Join(dir, name+".sig"), filepath.Join(dir, name+".dgst")
		os.WriteFile(pubFile, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki(t, key)}), 0o600)
		os.WriteFile(sigFile, der, 0o600)
		os.WriteFile(dgFile, digest[:], 0o600)
		if out, err := exec.Command(openssl, "pkeyutl", "-verify", "-pubin", "-inkey", pubFile, "-in", dgFile, "-sigfile", sigFile).CombinedOutput(); err != nil {
			t.Errorf("%s: OpenSSL rejects our signature: %v\n%s", name, err, out)
		}
		wrong := sha256.Sum256([]byte("another message"))
		os.WriteFile(dgFile, wrong[:], 0o600)
		if out, err := exec.Command(openssl, "pkeyutl", "-verify", "-pubin", "-inkey", pubFile, "-in", dgFile, "-sigfile", sigFile).CombinedOutput(); err == nil {
			t.Errorf("%s: OpenSSL accepts our signature for another digest:\n%s", name, out)
		}

		// We verify OpenSSL's signature made with a key it generated.
		privFile := filepath.Join(dir, name+".key")
		if out, err := exec.Command(openssl, "ecparam", "-name", osslName, "-genkey", "-noout", "-out", privFile).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		os.WriteFile(dgFile, digest[:], 0o600)
		osig, err := exec.Command(openssl, "pkeyutl", "-sign", "-inkey", privFile, "-in", dgFile).Output()
		if err != nil {
			t.Fatalf("%s: pkeyutl -sign: %v", name, err)
		}
		pubPEM, err := exec.Command(openssl, "ec", "-in", privFile, "-pubout", "-conv_form", "uncompressed").Output()
		if err != nil {
			t.Fatal(err)
		}
		theirs := fromSPKI(t, c, pubPEM)
		var rs struct{ R, S *big.Int }
		if _, err := asn1.Unmarshal(osig, &rs); err != nil {
			t.Fatal(err)
		}
		if !theirs.verify(digest[:], rs.R, rs.S, c.Params) {
			t.Errorf("%s: OpenSSL's signature does not verify here", name)
		}
		if theirs.verify(wrong[:], rs.R, rs.S, c.Params) {
			t.Errorf("%s: OpenSSL's signature verifies for another digest", name)
		}
	}
}

// spki encodes an insecure key as a SubjectPublicKeyInfo with the named
// curve (RFC 5480 §2).
func spki(t *testing.T, k *InsecureKey) []byte {
	size := (k.Curve.Params.P.BitLen() + 7) / 8
	point := append(append([]byte{4}, k.X.FillBytes(make([]byte, size))...), k.Y.FillBytes(make([]byte, size))...)
	params, _ := asn1.Marshal(k.Curve.OID)
	der, err := asn1.Marshal(struct {
		Algorithm pkix.AlgorithmIdentifier
		PublicKey asn1.BitString
	}{pkix.AlgorithmIdentifier{Algorithm: asn1.ObjectIdentifier{1, 2, 840, 10045, 2, 1}, Parameters: asn1.RawValue{FullBytes: params}},
		asn1.BitString{Bytes: point, BitLength: 8 * len(point)}})
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func fromSPKI(t *testing.T, c SEC2Curve, pemBytes []byte) *InsecureKey {
	block, _ := pem.Decode(pemBytes)
	var v struct {
		Algorithm pkix.AlgorithmIdentifier
		PublicKey asn1.BitString
	}
	if block == nil {
		t.Fatal("no PEM")
	}
	if _, err := asn1.Unmarshal(block.Bytes, &v); err != nil {
		t.Fatal(err)
	}
	p := v.PublicKey.Bytes
	size := (c.Params.P.BitLen() + 7) / 8
	if len(p) != 1+2*size || p[0] != 4 {
		t.Fatalf("not an uncompressed point: %x", p)
	}
	k := &InsecureKey{Curve: c, X: new(big.Int).SetBytes(p[1 : 1+size]), Y: new(big.Int).SetBytes(p[1+size:])}
	//lint:ignore SA1019 S003's SEC 2 curves exist only as CurveParams (benchmarking-only, INSECURE)
	if !c.Params.IsOnCurve(k.X, k.Y) {
		t.Fatal("OpenSSL's point is not on our curve")
	}
	return k
}

// RSA with e = 3: the keys are valid, the registry scheme signs and
// verifies with them, and OpenSSL verifies the signature with the key's
// SubjectPublicKeyInfo (so e = 3 on the wire is what OpenSSL reads).
func TestRSA3(t *testing.T) {
	openssl := needOpenSSL(t)
	k, err := GenerateRSA3(1024)
	if err != nil {
		t.Fatal(err)
	}
	if k.E != 3 || k.N.BitLen() != 1024 || k.Validate() != nil {
		t.Fatalf("e = %d, %d bits", k.E, k.N.BitLen())
	}
	s, _ := signScheme("RSA-1024-PKCS1v15-SHA256")
	key := schemeKey{s, &k.PublicKey, k, nil}
	msg := Message{NodeID: 1, Timestamp: 2, Counter: 3}.Signed()
	sig, err := key.Sign(msg)
	if err != nil || len(sig) != 128 || !key.Verify(msg, sig) || key.Verify(msg[1:], sig) {
		t.Fatalf("sign/verify: %v", err)
	}
	der, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pub, sigFile, msgFile := filepath.Join(dir, "pub.pem"), filepath.Join(dir, "sig"), filepath.Join(dir, "msg")
	os.WriteFile(pub, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o600)
	os.WriteFile(sigFile, sig, 0o600)
	os.WriteFile(msgFile, msg, 0o600)
	if out, err := exec.Command(openssl, "dgst", "-sha256", "-verify", pub, "-signature", sigFile, msgFile).CombinedOutput(); err != nil {
		t.Errorf("OpenSSL rejects the e = 3 signature: %v\n%s", err, out)
	}
	text, _ := exec.Command(openssl, "pkey", "-pubin", "-in", pub, "-text", "-noout").Output()
	if !bytes.Contains(text, []byte("Exponent: 3 (0x3)")) {
		t.Errorf("OpenSSL reads another exponent:\n%s", text)
	}
}
