package wolfssl

import "github.com/cryptocost/cryptocost/scheme"

// Name is the provider's name in the registry ("Ed25519@wolfssl").
const Name scheme.Provider = "wolfssl"

const (
	description   = "wolfSSL 5.5 wolfCrypt, C through cgo"
	debianPackage = "libwolfssl-dev"
)
