package probe

import (
	"bytes"
	//lint:ignore SA1019 DSA certificates exist on old servers; the probe names them
	"crypto/dsa"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"fmt"
	"time"
)

// Chain is a certificate chain as a server sent it.
type Chain struct {
	// Source says which handshake it came from.
	Source  string  `json:"source"`
	Version Version `json:"version"`
	Count   int     `json:"count"`
	// MessageBytes is the Certificate handshake message, 4-byte header
	// included, as it crossed the wire (inside records): what the chain
	// costs on the air before record framing.
	MessageBytes int `json:"message_bytes"`
	// DERBytes is the certificates alone.
	DERBytes     int        `json:"der_bytes"`
	Certificates []CertInfo `json:"certificates"`
	// OCSPStapled: the server stapled an OCSP response (RFC 6066 §8;
	// RFC 8446 §4.4.2.1), of OCSPBytes bytes.
	OCSPStapled bool `json:"ocsp_stapled"`
	OCSPBytes   int  `json:"ocsp_bytes,omitempty"`
	// Verified is the result of verifying the chain against the system's
	// roots for the server name; the probe profiles unverifiable servers
	// too, so this is a finding, not a condition.
	Verified string `json:"verified"`
	// HandshakeSignature is the signature scheme of the server's
	// ServerKeyExchange (TLS 1.2) or CertificateVerify (TLS 1.3).
	HandshakeSignature string   `json:"handshake_signature,omitempty"`
	Evidence           Evidence `json:"evidence"`
}

// CertInfo describes one certificate.
type CertInfo struct {
	Subject            string    `json:"subject"`
	Issuer             string    `json:"issuer"`
	KeyType            string    `json:"key_type"`
	KeyBits            int       `json:"key_bits"`
	SignatureAlgorithm string    `json:"signature_algorithm"`
	NotBefore          time.Time `json:"not_before"`
	NotAfter           time.Time `json:"not_after"`
	DERBytes           int       `json:"der_bytes"`
	SelfSigned         bool      `json:"self_signed,omitempty"`
	// Error says why the certificate could not be parsed, if it could not.
	Error string `json:"error,omitempty"`
}

// newChain describes a chain of DER certificates.
func newChain(source string, v Version, ders [][]byte, messageBytes int, ocsp []byte, serverName string, now time.Time) Chain {
	ch := Chain{Source: source, Version: v, Count: len(ders), MessageBytes: messageBytes,
		OCSPStapled: len(ocsp) > 0, OCSPBytes: len(ocsp)}
	var parsed []*x509.Certificate
	for _, der := range ders {
		ch.DERBytes += len(der)
		ci := CertInfo{DERBytes: len(der)}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			ci.Error = err.Error()
			ch.Certificates = append(ch.Certificates, ci)
			continue
		}
		parsed = append(parsed, c)
		ci.Subject, ci.Issuer = c.Subject.String(), c.Issuer.String()
		ci.KeyType, ci.KeyBits = keyInfo(c)
		ci.SignatureAlgorithm = c.SignatureAlgorithm.String()
		ci.NotBefore, ci.NotAfter = c.NotBefore.UTC(), c.NotAfter.UTC()
		ci.SelfSigned = bytes.Equal(c.RawSubject, c.RawIssuer) && c.CheckSignatureFrom(c) == nil
		ch.Certificates = append(ch.Certificates, ci)
	}
	ch.Verified = verifyChain(parsed, serverName, now)
	return ch
}

// keyInfo names a certificate's public key type and size in bits.
func keyInfo(c *x509.Certificate) (string, int) {
	switch k := c.PublicKey.(type) {
	case *rsa.PublicKey:
		return "RSA", k.N.BitLen()
	case *ecdsa.PublicKey:
		return "ECDSA " + k.Curve.Params().Name, k.Curve.Params().BitSize
	case ed25519.PublicKey:
		return "Ed25519", 256
	case *dsa.PublicKey:
		return "DSA", k.P.BitLen()
	}
	return c.PublicKeyAlgorithm.String(), 0
}

func verifyChain(certs []*x509.Certificate, serverName string, now time.Time) string {
	if len(certs) == 0 {
		return "not verified: no parsable certificate"
	}
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	opts := x509.VerifyOptions{Intermediates: inter, DNSName: serverName, CurrentTime: now}
	if _, err := certs[0].Verify(opts); err != nil {
		return fmt.Sprintf("not verified: %v", err)
	}
	if serverName == "" {
		return "verified against the system roots (no name checked)"
	}
	return "verified against the system roots for " + serverName
}
