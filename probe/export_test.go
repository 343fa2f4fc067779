package probe

import (
	"crypto"
	"crypto/md5"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"math/big"
	"net"
	"slices"
	"testing"

	"github.com/cryptocost/cryptocost/internal/tlswire"
)

// exportSuites are two RSA_EXPORT suites (RFC 2246 §A.5).
var exportSuites = []uint16{0x0003, 0x0008} // TLS_RSA_EXPORT_WITH_RC4_40_MD5, _DES40_CBC_SHA

// TestRSAExport (fast tier): a TLS 1.0 server that accepts only RSA_EXPORT
// suites, answering as OpenSSL 0.9.8 did with a certificate key longer
// than 512 bits: a temporary 512-bit RSA key in its ServerKeyExchange,
// signed with the certificate's key over MD5 || SHA-1 of the randoms and
// the parameters (RFC 2246 §7.4.3). The server is scripted: no Debian
// package ships a TLS library that still offers export suites (OpenSSL
// removed them in 1.1.0, GnuTLS in 3.4). The probe must find the suites
// and report the temporary key's size from the ServerKeyExchange.
func TestRSAExport(t *testing.T) {
	p := sharedPKI(t)
	leafKey := p.leafKey.(*rsa.PrivateKey)
	// A 512-bit modulus: the product of two 256-bit primes.
	var n *big.Int
	for n == nil || n.BitLen() != 512 {
		a, err := rand.Prime(rand.Reader, 256)
		if err != nil {
			t.Fatal(err)
		}
		b, err := rand.Prime(rand.Reader, 256)
		if err != nil {
			t.Fatal(err)
		}
		n = new(big.Int).Mul(a, b)
	}
	h := startHostile(t, func(h *hostile, c net.Conn) {
		ch := h.readHello(c)
		if ch == nil || ch.Version != TLS10 {
			c.Write(marshalRecords(recordAlert, TLS10, []byte{2, 70})) // protocol_version
			return
		}
		i := slices.IndexFunc(ch.CipherSuites, func(id uint16) bool { return slices.Contains(exportSuites, id) })
		if i < 0 {
			c.Write(marshalRecords(recordAlert, TLS10, []byte{2, 40})) // handshake_failure
			return
		}
		sh := &ServerHello{Version: TLS10, CipherSuite: ch.CipherSuites[i], NoExtensions: true}
		rand.Read(sh.Random[:])
		shMsg, _ := sh.Marshal()
		certMsg, _ := (&Certificate{Entries: []CertificateEntry{{DER: p.leafDER}}}).Marshal()
		ske := &ServerKeyExchange{Kex: KexRSA, Modulus: n.Bytes(), Exponent: big.NewInt(65537).Bytes(), Signed: true}
		unsigned, _ := ske.Marshal()
		var hm tlswire.HandshakeMessage
		if err := hm.Unmarshal(unsigned); err != nil {
			t.Error(err)
			return
		}
		params := hm.Body // ServerRSAParams, before the signature is added
		m5, s1 := md5.New(), sha1.New()
		for _, w := range []func([]byte) (int, error){m5.Write, s1.Write} {
			w(ch.Random[:])
			w(sh.Random[:])
			w(params)
		}
		sig, err := rsa.SignPKCS1v15(nil, leafKey, crypto.MD5SHA1, append(m5.Sum(nil), s1.Sum(nil)...))
		if err != nil {
			t.Error(err)
			return
		}
		ske.Signature = sig
		skeMsg, _ := ske.Marshal()
		flight := slices.Concat(shMsg, certMsg, skeMsg, []byte{typeServerHelloDone, 0, 0, 0})
		c.Write(marshalRecords(recordHandshake, TLS10, flight))
	})
	r := runProbe(t, h.addr, Options{Suites: append(slices.Clone(testSuites), exportSuites...), Versions: []Version{TLS10}})
	check(t, "versions", acceptedVersions(r), []Version{TLS10})
	ids, _ := suiteIDs(r, TLS10)
	slices.Sort(ids)
	check(t, "TLS 1.0 suites", ids, exportSuites)
	e := r.KeyExchange.RSAExport
	if e == nil {
		t.Fatalf("no RSA export finding; key exchange %+v", r.KeyExchange)
	}
	check(t, "export modulus bits", e.ModulusBits, 512)
	check(t, "export exponent", e.Exponent, "65537")
	check(t, "temporary key", e.Temporary, true)
	check(t, "export version", e.Version, TLS10)
}
