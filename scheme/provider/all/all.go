// Package all links every C-library provider into a program: import it
// for its side effect (cmd/cryptocost does). Each provider is listed by
// the registry whether it could be compiled in and loaded or not, with
// the reason and the Debian package that brings its library.
package all

import (
	_ "github.com/cryptocost/cryptocost/scheme/provider/gcrypt"
	_ "github.com/cryptocost/cryptocost/scheme/provider/mbedtls"
	_ "github.com/cryptocost/cryptocost/scheme/provider/openssl"
	_ "github.com/cryptocost/cryptocost/scheme/provider/sodium"
	_ "github.com/cryptocost/cryptocost/scheme/provider/wolfssl"
)
