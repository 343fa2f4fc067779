package cprov

// Curve is one of the elliptic curves beyond the NIST ones that the
// registry has Go schemes for (scheme/eccurves.go) and that C libraries
// may offer: the registry's names of its ECDSA and ECDH schemes, the hash
// its ECDSA is registered with, and its field length. Each provider
// registers those its library really has, with its own algorithm string.
type Curve struct {
	Name  string // "secp256k1", "brainpoolP256r1": also OpenSSL's and libgcrypt's curve name
	Hash  string // "SHA256"
	Bytes int    // field and scalar bytes
}

// ExtraCurves are secp256k1 (SEC 2) and the Brainpool r1 curves of
// RFC 5639 that TLS uses (RFC 7027, RFC 8734).
var ExtraCurves = []Curve{
	{"secp256k1", "SHA256", 32},
	{"brainpoolP256r1", "SHA256", 32},
	{"brainpoolP384r1", "SHA384", 48},
	{"brainpoolP512r1", "SHA512", 64},
}

// ECDSA is the registry name of the curve's ECDSA scheme.
func (c Curve) ECDSA() string { return "ECDSA-" + c.Name + "-" + c.Hash }

// ECDH is the registry name of the curve's ECDH scheme.
func (c Curve) ECDH() string { return "ECDH-" + c.Name }
