//go:build cgo

package openssl

/*
#cgo CFLAGS: -I${SRCDIR}/../internal/cprov -Werror=implicit-function-declaration
#cgo LDFLAGS: -ldl
#include "openssl_cc.h"
*/
import "C"

import (
	"strings"
	"unsafe"

	"github.com/cryptocost/cryptocost/scheme"
	"github.com/cryptocost/cryptocost/scheme/provider/internal/cprov"
)

var lib = &cprov.Lib{Name: Name,
	New: unsafe.Pointer(C.oc_new), Run: unsafe.Pointer(C.oc_run), Output: unsafe.Pointer(C.oc_output),
	Free: unsafe.Pointer(C.oc_free), Keypair: unsafe.Pointer(C.oc_keypair), Public: unsafe.Pointer(C.oc_public),
	Null: unsafe.Pointer(C.oc_null)}

func init() {
	scheme.RegisterCProvider(scheme.CProvider{Name: Name, Description: description, Package: debianPackage,
		Load: func() (string, []scheme.Scheme, error) { return lib.Load(unsafe.Pointer(C.oc_load), entries) }, NullCall: lib.NullCall()})
}

func entries() []cprov.Entry {
	var e []cprov.Entry
	add := func(name string, impl any) { e = append(e, cprov.Entry{Name: name, Impl: impl}) }
	for name, alg := range map[string]string{
		"MD5": "MD5", "SHA-1": "SHA1", "SHA-224": "SHA224", "SHA-256": "SHA256", "SHA-384": "SHA384",
		"SHA-512": "SHA512", "SHA-512/256": "SHA512-256", "SHA3-224": "SHA3-224", "SHA3-256": "SHA3-256",
		"SHA3-384": "SHA3-384", "SHA3-512": "SHA3-512", "SHAKE128": "SHAKE128:32", "SHAKE256": "SHAKE256:64",
		"BLAKE2b-512": "BLAKE2B-512", "BLAKE2s-256": "BLAKE2S-256", "RIPEMD-160": "RIPEMD160",
	} {
		add(name, lib.Hash(alg))
	}
	for name, alg := range map[string]string{
		"HMAC-SHA-1": "HMAC:SHA1", "HMAC-SHA-256": "HMAC:SHA256", "HMAC-SHA-512": "HMAC:SHA512",
		"AES-128-CMAC": "CMAC:AES-128-CBC", "AES-256-CMAC": "CMAC:AES-256-CBC", "Poly1305": "POLY1305",
		"KMAC128": "KMAC-128", "KMAC256": "KMAC-256",
	} {
		add(name, lib.MAC(alg))
	}
	allModes := []string{"ecb", "cbc", "ofb", "ctr"}
	for name, prefix := range map[string]string{"AES-128": "AES-128-", "AES-192": "AES-192-", "AES-256": "AES-256-", "SM4": "SM4-"} {
		add(name, lib.Block(allModes, func(m string) string { return prefix + strings.ToUpper(m) }))
	}
	// Triple DES has no CTR mode in OpenSSL.
	for name, prefix := range map[string]string{"3DES-2key": "DES-EDE-", "3DES-3key": "DES-EDE3-"} {
		add(name, lib.Block(allModes[:3], func(m string) string { return prefix + strings.ToUpper(m) }))
	}
	for name, alg := range map[string]string{
		"AES-128-GCM": "AES-128-GCM", "AES-256-GCM": "AES-256-GCM", "ChaCha20-Poly1305": "ChaCha20-Poly1305",
		"AES-128-CCM": "AES-128-CCM:16", "AES-128-CCM-8": "AES-128-CCM:8",
	} {
		add(name, lib.AEAD(alg))
	}
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
	for _, c := range cprov.ExtraCurves {
		add(c.ECDSA(), lib.Sign("ECDSA:"+c.Name+":"+c.Hash))
		add(c.ECDH(), lib.Agreement("ECDH:"+c.Name))
	}
	return e
}
