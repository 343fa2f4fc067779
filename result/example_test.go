package result_test

import (
	"os"

	"github.com/cryptocost/cryptocost/result"
)

// Write a run in one of the registered output formats, looked up by the
// name --format takes: the same run as CSV here, as JSON, a table or Go
// benchmark lines (benchstat reads those) with another name.
func ExampleFormatByName() {
	run := &result.Run{Schema: result.Schema, ID: "example", Kind: "bench", Status: result.Complete,
		Results: []result.Result{{
			Subject: result.Subject{Kind: "primitive", Name: "SHA-256/hash/64", Scheme: "SHA-256", Operation: "hash", InputBytes: 64},
			Metrics: []result.Metric{result.NewSampled("time", "s", result.Lower, result.Measured, []float64{410e-9, 400e-9, 420e-9})},
		}}}
	f, err := result.FormatByName("csv")
	if err != nil {
		panic(err)
	}
	if err := f.Write(os.Stdout, run); err != nil {
		panic(err)
	}
	// Output:
	// run,subject,kind,scheme,provider,family,operation,input_bytes,metric,unit,label,n,median,ci_low,ci_high,q1,q3,min,max,p95,mad,mean,method,stop,error
	// example,SHA-256/hash/64,primitive,SHA-256,,,hash,64,time,s,measured,3,4.1e-07,,,4.0166667e-07,4.1833333e-07,4e-07,4.2e-07,4.2e-07,1e-08,4.1e-07,,,
}
