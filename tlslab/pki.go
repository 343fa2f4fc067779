package tlslab

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// PKI is the lab's test public-key infrastructure, made on the fly: a
// root CA, intermediates and leaves of each key kind. Keys are generated
// once per PKI and cached (RSA-4096 takes seconds), so a run's cells share
// them; certificates are deterministic in size except for signature
// encodings (ECDSA DER signatures vary by a byte or two).
type PKI struct {
	mu     sync.Mutex
	keys   map[string]crypto.Signer // kind + "/" + role
	chains map[string]*Chain
}

// NewPKI returns an empty PKI.
func NewPKI() *PKI {
	return &PKI{keys: map[string]crypto.Signer{}, chains: map[string]*Chain{}}
}

// Chain is a leaf certificate with the intermediates it is sent with and
// the root that verifies it.
type Chain struct {
	// Certificate is what a Go peer presents: leaf, then intermediates.
	Certificate tls.Certificate
	Root        *x509.Certificate
	Roots       *x509.CertPool
	// DER of the certificates sent (leaf first), for byte checks.
	Sent [][]byte
	// PEM encodings for OpenSSL: the leaf, the intermediates, the key,
	// the root.
	LeafPEM, ChainPEM, KeyPEM, RootPEM []byte
}

// Validity is fixed, so certificate sizes do not depend on the date
// (UTCTime until 2049, RFC 5280 §4.1.2.5).
var (
	notBefore = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	notAfter  = time.Date(2045, 1, 1, 0, 0, 0, 0, time.UTC)
)

func (p *PKI) key(kind CertKind, role string) (crypto.Signer, error) {
	id := string(kind) + "/" + role
	if k, ok := p.keys[id]; ok {
		return k, nil
	}
	var k crypto.Signer
	var err error
	switch kind {
	case CertRSA1024, CertRSA2048, CertRSA3072, CertRSA4096:
		bits := map[CertKind]int{CertRSA1024: 1024, CertRSA2048: 2048, CertRSA3072: 3072, CertRSA4096: 4096}[kind]
		k, err = rsa.GenerateKey(rand.Reader, bits)
	case CertECDSAP256:
		k, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case CertECDSAP384:
		k, err = ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	case CertEd25519:
		_, k, err = ed25519.GenerateKey(rand.Reader)
	default:
		return nil, fmt.Errorf("certificate kind %q unknown", kind)
	}
	if err != nil {
		return nil, fmt.Errorf("generating a %s key: %w", kind, err)
	}
	p.keys[id] = k
	return k, nil
}

// Server returns a server chain of the given kind sending n certificates
// (the leaf and n−1 intermediates), for "localhost" and 127.0.0.1. Every
// CA in it has a key of the same kind.
func (p *PKI) Server(kind CertKind, n int) (*Chain, error) { return p.chain(kind, n, false) }

// Client returns a client certificate of the given kind, issued by the
// root directly (the client sends one certificate).
func (p *PKI) Client(kind CertKind) (*Chain, error) { return p.chain(kind, 1, true) }

func (p *PKI) chain(kind CertKind, n int, client bool) (*Chain, error) {
	if n < 1 || n > 3 {
		return nil, fmt.Errorf("chain of %d certificates: want 1 to 3", n)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	id := fmt.Sprintf("%s/%d/%v", kind, n, client)
	if c, ok := p.chains[id]; ok {
		return c, nil
	}
	rootKey, err := p.key(kind, "root")
	if err != nil {
		return nil, err
	}
	root := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{Organization: []string{"cryptocost lab"}, CommonName: "cryptocost lab root " + string(kind)},
		NotBefore:    notBefore, NotAfter: notAfter,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true, IsCA: true,
	}
	rootDER, err := x509.CreateCertificate(rand.Reader, root, root, rootKey.Public(), rootKey)
	if err != nil {
		return nil, fmt.Errorf("root certificate: %w", err)
	}
	root, _ = x509.ParseCertificate(rootDER)
	issuer, issuerKey := root, rootKey
	var inters [][]byte
	for i := 1; i < n; i++ {
		k, err := p.key(kind, fmt.Sprintf("intermediate%d", i))
		if err != nil {
			return nil, err
		}
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(int64(1 + i)),
			Subject:      pkix.Name{Organization: []string{"cryptocost lab"}, CommonName: fmt.Sprintf("cryptocost lab intermediate %d %s", i, kind)},
			NotBefore:    notBefore, NotAfter: notAfter,
			KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
			BasicConstraintsValid: true, IsCA: true,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, issuer, k.Public(), issuerKey)
		if err != nil {
			return nil, fmt.Errorf("intermediate certificate: %w", err)
		}
		issuer, _ = x509.ParseCertificate(der)
		issuerKey = k
		inters = append([][]byte{der}, inters...) // the leaf's issuer comes first
	}
	role := "server"
	usage := x509.ExtKeyUsageServerAuth
	if client {
		role, usage = "client", x509.ExtKeyUsageClientAuth
	}
	leafKey, err := p.key(kind, role)
	if err != nil {
		return nil, err
	}
	ku := x509.KeyUsageDigitalSignature
	if _, ok := leafKey.(*rsa.PrivateKey); ok {
		ku |= x509.KeyUsageKeyEncipherment // RSA key transport (RFC 5246 §7.4.7.1)
	}
	leafTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(100),
		Subject:      pkix.Name{Organization: []string{"cryptocost lab"}, CommonName: "cryptocost lab " + role},
		NotBefore:    notBefore, NotAfter: notAfter,
		KeyUsage: ku, ExtKeyUsage: []x509.ExtKeyUsage{usage},
	}
	if !client {
		leafTmpl.DNSNames = []string{"localhost"}
		leafTmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, issuer, leafKey.Public(), issuerKey)
	if err != nil {
		return nil, fmt.Errorf("%s certificate: %w", role, err)
	}
	leaf, _ := x509.ParseCertificate(leafDER)
	c := &Chain{Root: root, Roots: x509.NewCertPool(), Sent: append([][]byte{leafDER}, inters...)}
	c.Roots.AddCert(root)
	c.Certificate = tls.Certificate{Certificate: c.Sent, PrivateKey: leafKey, Leaf: leaf}
	c.LeafPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leafDER})
	for _, der := range inters {
		c.ChainPEM = append(c.ChainPEM, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})...)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(leafKey)
	if err != nil {
		return nil, err
	}
	c.KeyPEM = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	c.RootPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rootDER})
	p.chains[id] = c
	return c, nil
}

// chainFiles are a chain's PEM files for OpenSSL.
type chainFiles struct{ leaf, chain, key, root string }

// writeFiles writes the chain's PEM files into dir with this prefix.
func (c *Chain) writeFiles(dir, prefix string) (chainFiles, error) {
	f := chainFiles{
		leaf: filepath.Join(dir, prefix+"-cert.pem"), key: filepath.Join(dir, prefix+"-key.pem"),
		root: filepath.Join(dir, prefix+"-root.pem"),
	}
	files := map[string][]byte{f.leaf: c.LeafPEM, f.key: c.KeyPEM, f.root: c.RootPEM}
	if len(c.ChainPEM) > 0 {
		f.chain = filepath.Join(dir, prefix+"-chain.pem")
		files[f.chain] = c.ChainPEM
	}
	for name, data := range files {
		if err := os.WriteFile(name, data, 0o600); err != nil {
			return f, err
		}
	}
	return f, nil
}
