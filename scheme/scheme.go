// Package scheme is cryptocost's algorithm registry: every primitive it can
// measure, described uniformly and verified against known answers.
//
// The shape follows CIRCL's kem.Scheme and sign.Scheme: one small interface
// per family (HashScheme, BlockScheme, SignScheme, ...) that embeds Scheme,
// every algorithm a value of it, and a registry with ByName (case-insensitive,
// aliases) and All. A scheme also lists the Operations the measurement engine
// can time; each Operation prepares keys, buffers and contexts outside the
// timed region and returns a Loop that runs only the operation.
package scheme

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
)

// Family groups schemes that share an interface.
type Family string

// The families cryptocost knows. "keygen" is not a family: key generation is
// an operation of the asymmetric families (see OpKeygen).
const (
	FamilyHash   Family = "hash"   // message digests and XOFs
	FamilyMAC    Family = "mac"    // message authentication codes
	FamilyBlock  Family = "block"  // block ciphers with ECB/CBC/OFB/CTR modes
	FamilyStream Family = "stream" // stream ciphers
	FamilyAEAD   Family = "aead"   // authenticated encryption with associated data
	FamilyPKE    Family = "pke"    // public-key encryption
	FamilySign   Family = "sign"   // digital signatures
	FamilyKEX    Family = "kex"    // key agreement and key encapsulation
	FamilyRNG    Family = "rng"    // random number generation
)

// Families lists every family in display order.
var Families = []Family{FamilyHash, FamilyMAC, FamilyBlock, FamilyStream, FamilyAEAD,
	FamilyPKE, FamilySign, FamilyKEX, FamilyRNG}

// ParseFamily returns the family named s (case-insensitive).
func ParseFamily(s string) (Family, error) {
	for _, f := range Families {
		if strings.EqualFold(string(f), s) {
			return f, nil
		}
	}
	names := make([]string, len(Families))
	for i, f := range Families {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown family %q: want one of %s", s, strings.Join(names, ", "))
}

// Provider names the implementation a scheme comes from.
type Provider string

// Providers of the built-in schemes.
const (
	ProviderGo         Provider = "go"         // the Go standard library
	ProviderXCrypto    Provider = "x/crypto"   // golang.org/x/crypto
	ProviderCIRCL      Provider = "circl"      // github.com/cloudflare/circl
	ProviderCryptocost Provider = "cryptocost" // written in this repository (see the scheme's Standard)
)

// Security is a scheme's security strength.
type Security struct {
	// Bits is the classical security strength in bits as NIST SP 800-57
	// Part 1 Rev. 5 Tables 2 and 3 assign it; 0 means practically broken.
	Bits int `json:"bits"`
	// Category is the NIST post-quantum security category (1-5), or 0.
	Category int `json:"pq_category,omitempty"`
	// Note explains a value that is not read straight off the table.
	Note string `json:"note,omitempty"`
}

// Sizes are a scheme's fixed sizes in bytes; zero means "not applicable".
type Sizes struct {
	Key          int `json:"key,omitempty"`           // symmetric key
	Block        int `json:"block,omitempty"`         // cipher or hash block
	Nonce        int `json:"nonce,omitempty"`         // nonce or IV
	Output       int `json:"output,omitempty"`        // digest, MAC or shared-secret size
	Tag          int `json:"tag,omitempty"`           // AEAD tag
	PublicKey    int `json:"public_key,omitempty"`    // encoded public key
	PrivateKey   int `json:"private_key,omitempty"`   // encoded private key
	Signature    int `json:"signature,omitempty"`     // signature (maximum if variable)
	Ciphertext   int `json:"ciphertext,omitempty"`    // PKE or KEM ciphertext
	SharedSecret int `json:"shared_secret,omitempty"` // KEM/agreement shared secret
	// VariableSignature is set when signatures are DER-encoded and Signature
	// is the maximum.
	VariableSignature bool `json:"variable_signature,omitempty"`
}

// Param is one named parameter of a scheme ("curve" = "P-256").
type Param struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Info describes a scheme. It is plain data, shared by list output, results
// and documentation.
type Info struct {
	Name     string   `json:"name"`
	Aliases  []string `json:"aliases,omitempty"`
	Family   Family   `json:"family"`
	Params   []Param  `json:"params,omitempty"`
	Security Security `json:"security"`
	Sizes    Sizes    `json:"sizes"`
	Provider Provider `json:"provider"`
	// Legacy is non-empty for broken or deprecated schemes and says why
	// (they are here because constrained-device studies measured them).
	Legacy string `json:"legacy,omitempty"`
	// Standard names the document that defines the scheme and its vectors.
	Standard string `json:"standard,omitempty"`
}

// ID is the registry key: the name, and the provider after an "@".
func (i *Info) ID() string { return i.Name + "@" + string(i.Provider) }

// Param returns the value of parameter key, or "".
func (i *Info) Param(key string) string {
	for _, p := range i.Params {
		if p.Key == key {
			return p.Value
		}
	}
	return ""
}

// Scheme is what every algorithm implements, whatever its family.
type Scheme interface {
	// Info describes the scheme. The pointer is shared: do not modify.
	Info() *Info
	// KAT runs the scheme's known-answer tests and returns the first
	// mismatch. The engine runs it before timing anything.
	KAT() error
	// Operations lists what the measurement engine can time.
	Operations() []Operation
}

// InputKind says what an operation's size parameter means.
type InputKind int

const (
	// InputNone: the operation takes no sized input (key generation,
	// encapsulation).
	InputNone InputKind = iota
	// InputBulk: the size is the number of bytes processed per call;
	// throughput (MB/s) and cycles/byte are meaningful.
	InputBulk
	// InputMessage: the size is a document length that the operation
	// hashes as part of its work (signing a document of that size).
	InputMessage
	// InputCount: the size is a number of items per call (the seed
	// study's "100 random 64-bit numbers").
	InputCount
)

func (k InputKind) String() string {
	switch k {
	case InputBulk:
		return "bulk"
	case InputMessage:
		return "message"
	case InputCount:
		return "count"
	}
	return "none"
}

// Common operation names. Families add their own ("encrypt-cbc").
const (
	OpKeygen      = "keygen"
	OpKeySchedule = "key-schedule" // block ciphers: expanding the key
	OpKeySetup    = "key-setup"    // MACs, stream ciphers, AEADs: key (and IV) to a ready state
	OpSign        = "sign"
	OpVerify      = "verify"
	OpHash        = "hash"
	OpMAC         = "mac"
	OpEncrypt     = "encrypt"
	OpDecrypt     = "decrypt"
	OpSeal        = "seal"
	OpOpen        = "open"
	OpEncaps      = "encaps"
	OpDecaps      = "decaps"
	OpDerive      = "derive"
)

// Operation is one timeable operation of a scheme.
type Operation struct {
	// Name is the operation ("sign", "encrypt-cbc", "keygen").
	Name string
	// Input says what Args.Size means.
	Input InputKind
	// Multiple, if non-zero, is the block size that sizes must be a
	// multiple of (ECB and CBC have no padding here).
	Multiple int
	// MinSize and MaxSize bound the sizes the operation accepts (0: none).
	MinSize, MaxSize int
	// DefaultSizes overrides the engine's default sizes for this operation.
	DefaultSizes []int
	// Slow marks operations that take a second or more per call on a
	// laptop (RSA-4096 key generation): the default run leaves them out.
	Slow bool
	// DistinctKeys, if non-zero, is how many distinct keys Prepare has:
	// Args.Variant v uses key v mod DistinctKeys (RSA's embedded test
	// keys: ten per size up to 4096 bits, two above). Zero: every variant
	// gets its own key or none is needed.
	DistinctKeys int
	// Prepare does everything that must not be timed — keys, key
	// schedules, buffers, contexts — and returns the loop to time.
	Prepare func(Args) (Loop, error)
}

// Args parameterise Operation.Prepare.
type Args struct {
	// Size is the input size (see Operation.Input).
	Size int
	// Variant distinguishes distinct keys and inputs: Prepare called with
	// different variants uses different keys and data (the seed002
	// method's "K distinct keys"). Variant 0 is the default.
	Variant int
}

// Loop runs the prepared operation n times. It returns an error only if the
// operation fails, which the engine reports instead of a number.
type Loop func(n int) error

// CheckSize reports whether size is acceptable for op, with an error that
// says what would work.
func (op *Operation) CheckSize(size int) error {
	if op.Input == InputNone {
		return nil
	}
	if size < 0 || size < op.MinSize {
		return fmt.Errorf("size %d is below the minimum %d for %s", size, op.MinSize, op.Name)
	}
	if op.MaxSize > 0 && size > op.MaxSize {
		return fmt.Errorf("size %d is above the maximum %d for %s", size, op.MaxSize, op.Name)
	}
	if op.Multiple > 1 && size%op.Multiple != 0 {
		lo := size - size%op.Multiple
		hi := lo + op.Multiple
		if lo == 0 {
			return fmt.Errorf("size %d is not a multiple of the %d-byte block (%s has no padding): use %d", size, op.Multiple, op.Name, hi)
		}
		return fmt.Errorf("size %d is not a multiple of the %d-byte block (%s has no padding): use %d or %d", size, op.Multiple, op.Name, lo, hi)
	}
	return nil
}

// ErrKAT wraps every known-answer-test failure.
var ErrKAT = errors.New("known-answer test failed")

// katError builds a KAT failure for scheme s, vector i.
func katError(name string, vector string, got, want []byte) error {
	return fmt.Errorf("%s: %w: vector %s: got %x, want %x", name, ErrKAT, vector, got, want)
}

// FormatSize writes a byte count the way --sizes accepts it (1k, 400k, 1m).
func FormatSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + "m"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + "k"
	}
	return strconv.Itoa(n)
}

// ParseSize parses "16", "1k", "400K", "1m", "2MiB" into bytes (k = 1024):
// catalog.ParseSize, the tool's one size parser.
func ParseSize(s string) (int, error) { return catalog.ParseSize(s) }
