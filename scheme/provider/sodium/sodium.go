//go:build cgo

package sodium

/*
#cgo CFLAGS: -I${SRCDIR}/../internal/cprov -Werror=implicit-function-declaration
#cgo LDFLAGS: -ldl
#include "sodium_cc.h"
*/
import "C"

import (
	"unsafe"

	"github.com/cryptocost/cryptocost/scheme"
	"github.com/cryptocost/cryptocost/scheme/provider/internal/cprov"
)

var lib = &cprov.Lib{Name: Name,
	New: unsafe.Pointer(C.sc_new), Run: unsafe.Pointer(C.sc_run), Output: unsafe.Pointer(C.sc_output),
	Free: unsafe.Pointer(C.sc_free), Keypair: unsafe.Pointer(C.sc_keypair), Public: unsafe.Pointer(C.sc_public),
	Null: unsafe.Pointer(C.sc_null)}

func init() {
	scheme.RegisterCProvider(scheme.CProvider{Name: Name, Description: description, Package: debianPackage,
		Load: func() (string, []scheme.Scheme, error) { return lib.Load(unsafe.Pointer(C.sc_load), entries) }, NullCall: lib.NullCall()})
}

func entries() []cprov.Entry {
	e := []cprov.Entry{
		{Name: "SHA-256", Impl: lib.Hash("sha256")},
		{Name: "SHA-512", Impl: lib.Hash("sha512")},
		{Name: "BLAKE2b-512", Impl: lib.Hash("blake2b-512")},
		{Name: "HMAC-SHA-256", Impl: lib.MAC("hmacsha256")},
		{Name: "HMAC-SHA-512", Impl: lib.MAC("hmacsha512")},
		{Name: "Poly1305", Impl: lib.MAC("poly1305")},
		{Name: "ChaCha20-Poly1305", Impl: lib.AEAD("chacha20poly1305-ietf")},
		{Name: "XChaCha20-Poly1305", Impl: lib.AEAD("xchacha20poly1305-ietf")},
		{Name: "ChaCha20", Impl: lib.Stream("chacha20-ietf")},
		{Name: "Salsa20", Impl: lib.Stream("salsa20")},
		{Name: "Ed25519", Impl: lib.Sign("ed25519")},
		{Name: "X25519", Impl: lib.Agreement("x25519")},
	}
	// libsodium's AES-GCM needs AES-NI and PCLMUL; without them it is not offered.
	if C.sc_aes_gcm() == 1 {
		e = append(e, cprov.Entry{Name: "AES-256-GCM", Impl: lib.AEAD("aes256gcm")})
	}
	return e
}
