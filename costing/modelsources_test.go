package costing

import (
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/model"
)

// TestOpenModelCosts checks a model command's cost sources: the model's
// own table by default, a device through the resolver, and an unknown
// radio or device named by its flag. Tier: fast.
func TestOpenModelCosts(t *testing.T) {
	m, err := model.Open("tinysersync")
	if err != nil {
		t.Fatal(err)
	}
	c, err := OpenModelCosts(m, ModelSources{})
	if err != nil || c.Radio == nil {
		t.Fatalf("default costs = %+v, %v", c, err)
	}
	if _, err := OpenModelCosts(m, ModelSources{Device: "telosb"}); err != nil {
		t.Errorf("--device telosb: %v", err)
	}
	if _, err := OpenModelCosts(m, ModelSources{Radio: "nosuch"}); err == nil || !strings.HasPrefix(err.Error(), "--radio:") {
		t.Errorf("unknown radio: %v", err)
	}
	if _, err := OpenModelCosts(m, ModelSources{Device: "nosuch"}); err == nil || !strings.HasPrefix(err.Error(), "--device:") {
		t.Errorf("unknown device: %v", err)
	}
}
