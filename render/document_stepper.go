package render

// stepper converts a stepper (see document_items.go): a stepper block of
// stepper-steps at the top level or in a column, elsewhere its steps'
// content. A step's icon has no markdown form Git Sync is known to write.
func (c *converter) stepper(n *formNode, at place) []any {
	if at != atTop && at != inColumn {
		return c.flatItems(n, "step", at, func(map[string]string) string { return "" })
	}
	steps := []any{}
	for _, it := range c.items(n, "step", inStep) {
		steps = append(steps, block("stepper-step", nil, it.nodes))
	}
	return []any{block("stepper", nil, steps)}
}

// stepperMD writes a stepper as Git Sync does; a step's icon is refused.
func stepperMD(out *[]chunk, steps []any, paths []*nodePath) error {
	return itemsMD(out, "stepper", "", "step", "stepper-step", steps, paths, inStep, func(data map[string]any, p *nodePath) (string, error) {
		return "", noData(data, p, "icon")
	})
}
