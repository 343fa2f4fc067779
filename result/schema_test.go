package result

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"sort"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSONSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("run.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("run.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// ValidateAgainstSchema checks JSON output against the shipped schema.
func validateAgainstSchema(t *testing.T, sch *jsonschema.Schema, name string, data []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s does not match run.schema.json: %v", name, err)
	}
}

// TestSchemaMatchesOutput: the golden JSON, a round-1 run upgraded and
// written again, and runs with an unbounded CI and work records all
// validate; a run with a unit outside the vocabulary does not.
func TestSchemaMatchesOutput(t *testing.T) {
	sch := compileSchema(t)
	golden, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	validateAgainstSchema(t, sch, "golden.json", golden)

	f, err := os.Open("testdata/round1-battery.json")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := ReadJSON(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	run := fixture()
	run.Results[0].Work = []Work{{Component: "hashing", Scheme: "SHA-256", Provider: "go", Operation: "hash", InputBytes: 1024,
		Count: 2, CountLabel: Modelled, HostNs: []float64{1000, 1010}, HostLabel: Measured}}
	var buf bytes.Buffer
	if err := (jsonFormat{}).Write(&buf, append(runs, run)...); err != nil {
		t.Fatal(err)
	}
	validateAgainstSchema(t, sch, "round-1 run upgraded, and a run with work", buf.Bytes())

	var bad map[string]any
	json.Unmarshal(golden, &bad)
	bad["results"].([]any)[0].(map[string]any)["metrics"].([]any)[0].(map[string]any)["unit"] = "ns/op"
	data, _ := json.Marshal(bad)
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err := sch.Validate(inst); err == nil {
		t.Error("a time in ns/op validated: the schema does not check units")
	}
}

// TestSchemaUnits keeps the schema's unit list equal to the vocabulary's
// base units.
func TestSchemaUnits(t *testing.T) {
	var doc struct {
		Defs struct {
			Unit struct {
				Enum []string `json:"enum"`
			} `json:"unit"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(JSONSchema, &doc); err != nil {
		t.Fatal(err)
	}
	var base []string
	for u := range baseUnits {
		base = append(base, u)
	}
	sort.Strings(base)
	got := slices.Clone(doc.Defs.Unit.Enum)
	sort.Strings(got)
	if !slices.Equal(got, base) {
		t.Errorf("schema units %v\nvocabulary base units %v", got, base)
	}
}
