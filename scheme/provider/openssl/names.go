package openssl

import "github.com/cryptocost/cryptocost/scheme"

// Name is the provider's name in the registry ("SHA-256@openssl").
const Name scheme.Provider = "openssl"

const (
	description   = "OpenSSL 3 libcrypto (EVP), C through cgo"
	debianPackage = "libssl-dev"
)
