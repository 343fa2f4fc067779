package sensor

import (
	"context"
	"fmt"
	"strings"

	"github.com/cryptocost/cryptocost/model"
	"github.com/cryptocost/cryptocost/result"
)

// The built-in analytic model of the same system, `sensor-reading`
// (model/models/sensor-reading.yaml, docs/model.md §8), evaluated at the
// measured point so a run shows measured and modelled figures side by
// side: the same readings per session, and the application-layer sizes
// the run measured (the SenML reading, the CoAP request's headers, the
// CoAP response), so the comparison tests what the model adds — object
// and DTLS overheads, the handshake, 6LoWPAN fragmentation, MAC
// acknowledgements — not a different choice of reading.

// ModelName is the built-in model the scenario compares with.
const ModelName = "sensor-reading"

// ModelPoint is where the model is evaluated.
type ModelPoint struct {
	Variant  string
	Readings int
	// ReadingBytes, CoAPBytes, CoAPAckBytes are the measured sizes.
	ReadingBytes, CoAPBytes, CoAPAckBytes int
}

// ModelFigures are the model's outputs per reading, amortised over the
// session.
type ModelFigures struct {
	AirBytesUp, AirBytesDown float64
	FramesUp, FramesDown     float64
	EnergyMilliJoules        float64
	EnergyLabel              result.Label
	Method, CostSource       string
}

// set is the point as the model's parameter values.
func (pt ModelPoint) set() map[string]float64 {
	return map[string]float64{"readings": float64(pt.Readings), "reading_bytes": float64(pt.ReadingBytes),
		"coap_bytes": float64(pt.CoAPBytes), "coap_ack_bytes": float64(pt.CoAPAckBytes)}
}

// EvalModel evaluates the sensor-reading model at pt with its own cost
// table: the bytes and frames it predicts, which no device changes (the
// energy on a device is the costing stage's, from result.Result.Model).
func EvalModel(ctx context.Context, pt ModelPoint) (ModelFigures, error) {
	var f ModelFigures
	m, err := model.Open(ModelName)
	if err != nil {
		return f, err
	}
	table, err := model.OpenCosts(m.DefaultCosts)
	if err != nil {
		return f, err
	}
	costs := table.Costs()
	set := pt.set()
	plan, err := model.NewPlan(m, costs, model.Options{Set: set, Variants: []string{pt.Variant}})
	if err != nil {
		return f, fmt.Errorf("model %s: %w", ModelName, err)
	}
	var out model.Outputs
	err = plan.Run(ctx, func(_ *model.Point, o *model.Outputs) error {
		out = *o
		out.Messages = append([]model.MessageOutput(nil), o.Messages...)
		return nil
	})
	if err != nil {
		return f, fmt.Errorf("model %s: %w", ModelName, err)
	}
	f.AirBytesUp, f.AirBytesDown = out.BitsSent/8, out.BitsReceived/8
	for i, mo := range out.Messages {
		if m.Messages[i].Send {
			f.FramesUp += mo.Count * mo.Packets
		} else {
			f.FramesDown += mo.Count * mo.Packets
		}
	}
	f.EnergyMilliJoules = out.EnergyTotal() * 1e3
	f.EnergyLabel = result.Modelled
	for i := range m.Operations {
		if c, _ := plan.Eval.OpCost(0, i); c.Label == result.Estimated && out.Ops[i].Count > 0 {
			f.EnergyLabel = result.Estimated
		}
	}
	f.Method = fmt.Sprintf("built-in model %s (%s), variant %s, at readings=%d, reading_bytes=%d, coap_bytes=%d, coap_ack_bytes=%d (the sizes this run measured); other parameters at their defaults (cryptocost model show %s)",
		ModelName, strings.TrimSpace(m.Source), pt.Variant, pt.Readings, pt.ReadingBytes, pt.CoAPBytes, pt.CoAPAckBytes, ModelName)
	f.CostSource = costs.Describe()
	return f, nil
}
