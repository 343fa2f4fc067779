//go:build !cgo

package mbedtls

import "github.com/cryptocost/cryptocost/scheme"

func init() {
	scheme.RegisterCProvider(scheme.CProvider{Name: Name, Description: description, Package: debianPackage,
		Reason: "built without cgo (CGO_ENABLED=0)"})
}
