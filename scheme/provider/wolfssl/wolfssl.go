//go:build cgo

package wolfssl

/*
#cgo CFLAGS: -I${SRCDIR}/../internal/cprov -Werror=implicit-function-declaration
#cgo LDFLAGS: -ldl
#include "wolfssl_cc.h"
*/
import "C"

import (
	"strings"
	"unsafe"

	"github.com/cryptocost/cryptocost/scheme"
	"github.com/cryptocost/cryptocost/scheme/provider/internal/cprov"
)

var lib = &cprov.Lib{Name: Name,
	New: unsafe.Pointer(C.wo_new), Run: unsafe.Pointer(C.wo_run), Output: unsafe.Pointer(C.wo_output),
	Free: unsafe.Pointer(C.wo_free), Keypair: unsafe.Pointer(C.wo_keypair), Public: unsafe.Pointer(C.wo_public),
	Null: unsafe.Pointer(C.wo_null)}

func init() {
	scheme.RegisterCProvider(scheme.CProvider{Name: Name, Description: description, Package: debianPackage,
		Load: func() (string, []scheme.Scheme, error) { return lib.Load(unsafe.Pointer(C.wo_load), entries) }, NullCall: lib.NullCall()})
}

func entries() []cprov.Entry {
	e := []cprov.Entry{}
	add := func(name string, impl any) { e = append(e, cprov.Entry{Name: name, Impl: impl}) }
	for name, alg := range map[string]string{
		"MD5": "MD5", "SHA-1": "SHA1", "SHA-224": "SHA224", "SHA-256": "SHA256", "SHA-384": "SHA384",
		"SHA-512": "SHA512", "SHA3-224": "SHA3-224", "SHA3-256": "SHA3-256", "SHA3-384": "SHA3-384",
		"SHA3-512": "SHA3-512", "BLAKE2b-512": "BLAKE2B-512", "BLAKE2s-256": "BLAKE2S-256",
	} {
		add(name, lib.Hash(alg))
	}
	for name, alg := range map[string]string{
		"HMAC-SHA-1": "HMAC:SHA1", "HMAC-SHA-256": "HMAC:SHA256", "HMAC-SHA-512": "HMAC:SHA512",
		"AES-128-CMAC": "CMAC", "AES-256-CMAC": "CMAC", "Poly1305": "POLY1305",
	} {
		add(name, lib.MAC(alg))
	}
	aes := lib.Block([]string{"ecb", "cbc", "ofb", "ctr"}, func(m string) string { return "AES:" + strings.ToUpper(m) })
	add("AES-128", aes)
	add("AES-192", aes)
	add("AES-256", aes)
	for name, alg := range map[string]string{
		"AES-128-GCM": "GCM", "AES-256-GCM": "GCM", "ChaCha20-Poly1305": "CHACHA20-POLY1305",
		"XChaCha20-Poly1305": "XCHACHA20-POLY1305", "AES-128-CCM": "CCM:16", "AES-128-CCM-8": "CCM:8",
	} {
		add(name, lib.AEAD(alg))
	}
	add("ChaCha20", lib.Stream("CHACHA20"))
	add("Ed25519", lib.Sign("ED25519"))
	add("Ed448", lib.Sign("ED448"))
	for _, c := range []string{"224", "256", "384", "521"} {
		for _, h := range []string{"256", "384", "512"} {
			add("ECDSA-P"+c+"-SHA"+h, lib.Sign("ECDSA:P-"+c+":SHA"+h))
		}
	}
	add("X25519", lib.Agreement("X25519"))
	add("X448", lib.Agreement("X448"))
	for _, c := range []string{"256", "384", "521"} {
		add("ECDH-P"+c, lib.Agreement("ECDH:P-"+c))
	}
	for _, c := range cprov.ExtraCurves { // HAVE_ECC_KOBLITZ, HAVE_ECC_BRAINPOOL
		add(c.ECDSA(), lib.Sign("ECDSA:"+c.Name+":"+c.Hash))
		add(c.ECDH(), lib.Agreement("ECDH:"+c.Name))
	}
	return e
}
