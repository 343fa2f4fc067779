package tlslab

import (
	"fmt"
	"math"

	"github.com/cryptocost/cryptocost/result"
)

// ClientWork is the CPU work the client does on one connection of the
// cell, by S000's components, as operations of registry schemes the
// costing stage prices on any device: counted from the protocol (RFC 2246,
// RFC 5246 and RFC 8446 fix what a client computes for each key exchange,
// certificate and suite) and sized from the bytes the tap attributed on
// this connection. Each operation names the implementation that ran it
// (the client: go or openssl). The counts are modelled (labelled so); the
// bytes are measured.
func ClientWork(c Cell, conn *Conn) []result.Work {
	if c.Plain {
		return ioWork(c, conn)
	}
	a := conn.Analysis
	resumed := a != nil && a.Resumed
	prov := c.Client
	var out []result.Work
	add := func(comp Component, scheme, op string, bytes int, count float64, how string) {
		if scheme == "" || count <= 0 {
			return
		}
		out = append(out, result.Work{Component: string(comp), Party: "client", Scheme: scheme, Provider: prov,
			Operation: op, InputBytes: bytes, Count: count, CountLabel: result.Modelled, CountMethod: how})
	}
	// Asymmetric: the key exchange, the server's signatures, the client's.
	kexDone := !resumed || c.Resumption == ResumePSK // psk_dhe_ke still does (EC)DHE
	if kexDone {
		switch c.KeyExchange {
		case KexRSA:
			add(Asymmetric, rsaEncryption(c.Cert), "encrypt", 48, 1, "RSA key transport: the client encrypts the 48-byte premaster secret to the server's key (RFC 5246 §7.4.7.1)")
		case KexDHE:
			g := dheGroup(c)
			add(Asymmetric, g, "keygen", 0, 1, "the client's DH key pair (RFC 5246 §7.4.7.2; RFC 8446 §4.2.8)")
			add(Asymmetric, g, "derive", 0, 1, "the DH shared secret")
		case KexP256:
			add(Asymmetric, "ECDH-P256", "keygen", 0, 1, "the client's ephemeral P-256 key pair (RFC 8422 §5.10; RFC 8446 §4.2.8)")
			add(Asymmetric, "ECDH-P256", "derive", 0, 1, "the ECDH shared secret")
		case KexX25519:
			add(Asymmetric, "X25519", "keygen", 0, 1, "the client's ephemeral X25519 key pair (RFC 7748; RFC 8446 §4.2.8)")
			add(Asymmetric, "X25519", "derive", 0, 1, "the X25519 shared secret")
		case KexX25519MLKEM768:
			add(Asymmetric, "X25519MLKEM768", "keygen", 0, 1, "the client's hybrid key share: an X25519 key pair and an ML-KEM-768 key pair (draft-ietf-tls-ecdhe-mlkem)")
			add(Asymmetric, "X25519MLKEM768", "decaps", 0, 1, "the X25519 shared secret and the ML-KEM-768 decapsulation")
		}
	}
	if !resumed {
		sig := signatureScheme(c.Version, c.Cert)
		add(Asymmetric, sig, "verify", 0, float64(c.Chain), fmt.Sprintf("the client verifies the signature on each of the %d certificates the server sends (RFC 5280 §6)", c.Chain))
		switch {
		case c.Version == TLS13:
			add(Asymmetric, sig, "verify", 0, 1, "the server's CertificateVerify (RFC 8446 §4.4.3)")
		case c.KeyExchange != KexRSA:
			add(Asymmetric, sig, "verify", 0, 1, "the signature on the ServerKeyExchange parameters (RFC 5246 §7.4.3)")
		}
		if c.ClientAuth {
			add(Asymmetric, sig, "sign", 0, 1, "the client's CertificateVerify (RFC 5246 §7.4.8; RFC 8446 §4.4.3)")
		}
	}
	// Hashing: the transcript and the key derivation.
	handshake := 0
	if a != nil {
		handshake = a.Up.Handshake + a.Down.Handshake
	}
	for _, h := range transcriptHashes(c) {
		add(Hashing, h, "hash", handshake, 1, fmt.Sprintf("the handshake transcript, %d B of handshake records this connection carried, hashed once", handshake))
	}
	mac, n := prfHMACs(c, resumed)
	for _, m := range mac {
		add(Hashing, m, "mac", 64, n, fmt.Sprintf("the key derivation: about %g HMAC computations on short inputs (%s)", n, prfHow(c)))
	}
	// Symmetric and MAC: record protection of what followed the
	// handshake, each way.
	up, down := recordPayloads(c, a)
	for _, dir := range []struct {
		bytes int
		seal  bool
	}{{up, true}, {down, false}} {
		if dir.bytes <= 0 {
			continue
		}
		records := math.Ceil(float64(dir.bytes) / maxPlaintext)
		size := int(math.Ceil(float64(dir.bytes) / records))
		how := fmt.Sprintf("%d B of application data in %g records of at most 16 KiB (RFC 8446 §5.1)", dir.bytes, records)
		for _, w := range recordWork(c.Bulk, dir.seal) {
			add(SymmetricMAC, w.scheme, w.op, size, records, how)
		}
	}
	return append(out, ioWork(c, conn)...)
}

// ioWork: every TLS (or TCP payload) byte the client sent and received
// goes through its socket buffers once, a memory copy of each byte.
func ioWork(c Cell, conn *Conn) []result.Work {
	total := 0
	if a := conn.Analysis; a != nil {
		total = a.Up.All() + a.Down.All()
	} else {
		total = c.Transfer
	}
	if total <= 0 {
		return nil
	}
	return []result.Work{{Component: string(IO), Party: "client", Scheme: "memory", Provider: c.Client, Operation: "copy",
		InputBytes: total, Count: 1, CountLabel: result.Modelled,
		CountMethod: fmt.Sprintf("the %d TLS bytes each way through the socket: one memory copy of each", total)}}
}

// rsaEncryption is the registry's PKCS #1 v1.5 encryption for the cert's
// modulus.
func rsaEncryption(k CertKind) string {
	switch k {
	case CertRSA1024:
		return "RSA-1024-PKCS1v15"
	case CertRSA2048:
		return "RSA-2048-PKCS1v15"
	}
	return "" // RSA key transport with another key size has no registry scheme: not priced
}

// dheGroup is the registry's finite-field group: ffdhe2048 in TLS 1.3
// (RFC 7919) and for the lab's DHE suites.
func dheGroup(c Cell) string { return "ffdhe2048" }

// signatureScheme is the registry scheme of the server's signatures: PSS
// for RSA in TLS 1.3 (RFC 8446 §4.2.3), PKCS #1 v1.5 before; the hash of
// the key's size for ECDSA.
func signatureScheme(v Version, k CertKind) string {
	rsa := func(bits int) string {
		if v == TLS13 {
			return fmt.Sprintf("RSA-%d-PSS-SHA256", bits)
		}
		return fmt.Sprintf("RSA-%d-PKCS1v15-SHA256", bits)
	}
	switch k {
	case CertRSA1024:
		return rsa(1024)
	case CertRSA2048:
		return rsa(2048)
	case CertRSA3072:
		return rsa(3072)
	case CertRSA4096:
		return rsa(4096)
	case CertECDSAP256:
		return "ECDSA-P256-SHA256"
	case CertECDSAP384:
		return "ECDSA-P384-SHA384"
	case CertEd25519:
		return "Ed25519"
	}
	return ""
}

// transcriptHashes: TLS 1.0 hashes the transcript with MD5 and SHA-1
// (RFC 2246 §7.4.9); TLS 1.2 and 1.3 with the suite's hash, SHA-384 for
// the AES-256-GCM suites (RFC 5289, RFC 8446 §B.4), SHA-256 otherwise.
func transcriptHashes(c Cell) []string {
	switch {
	case c.Version == TLS10:
		return []string{"MD5", "SHA-1"}
	case c.Bulk == BulkAES256GCM:
		return []string{"SHA-384"}
	}
	return []string{"SHA-256"}
}

// prfHMACs is the key derivation's HMACs: TLS 1.0's PRF XORs P_MD5 and
// P_SHA-1 (RFC 2246 §5), TLS 1.2's is P_SHA256 (RFC 5246 §5), TLS 1.3's
// HKDF (RFC 8446 §7.1). Each P_hash output block costs two HMACs; the
// master secret (48 B), the key block and the two Finished values need
// about ten blocks; TLS 1.3's schedule about twenty HMACs.
func prfHMACs(c Cell, resumed bool) ([]string, float64) {
	switch c.Version {
	case TLS10:
		return []string{"HMAC-MD5", "HMAC-SHA-1"}, 10
	case TLS12:
		return []string{"HMAC-SHA-256"}, 12
	}
	if resumed {
		return []string{"HMAC-SHA-256"}, 24
	}
	return []string{"HMAC-SHA-256"}, 20
}

func prfHow(c Cell) string {
	switch c.Version {
	case TLS10:
		return "TLS 1.0's PRF: P_MD5 ⊕ P_SHA-1, RFC 2246 §5"
	case TLS12:
		return "TLS 1.2's PRF: P_SHA256, RFC 5246 §5"
	}
	return "TLS 1.3's HKDF key schedule, RFC 8446 §7.1"
}

// recordPayloads is the plaintext the client protected (up) and opened
// (down) after the handshake: the transfer in its direction, the two
// Finished messages, close_notify.
func recordPayloads(c Cell, a *Analysis) (up, down int) {
	const finished, alert = 16, 2
	up, down = finished+alert, finished+alert
	if c.Direction == Up {
		up += c.Transfer
	} else {
		down += c.Transfer
	}
	return up, down
}

type recordOp struct{ scheme, op string }

// recordWork is what protecting (seal) or opening one record costs: the
// AEAD (RFC 5116, RFC 8439), or AES-CBC and HMAC-SHA-1 (RFC 5246 §6.2.3.1).
func recordWork(b Bulk, seal bool) []recordOp {
	aead := func(s string) []recordOp {
		if seal {
			return []recordOp{{s, "seal"}}
		}
		return []recordOp{{s, "open"}}
	}
	cbc := func(s string) []recordOp {
		if seal {
			return []recordOp{{s, "encrypt-cbc"}, {"HMAC-SHA-1", "mac"}}
		}
		return []recordOp{{s, "decrypt-cbc"}, {"HMAC-SHA-1", "mac"}}
	}
	switch b {
	case BulkAES128GCM:
		return aead("AES-128-GCM")
	case BulkAES256GCM:
		return aead("AES-256-GCM")
	case BulkChaCha20:
		return aead("ChaCha20-Poly1305")
	case BulkAES128CBC:
		return cbc("AES-128")
	case BulkAES256CBC:
		return cbc("AES-256")
	}
	return nil
}
