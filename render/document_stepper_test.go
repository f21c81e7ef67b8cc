package render

import "testing"

// stepperTests are steppers as Git Sync writes them, and the outline of
// their document; Markdown writes the document back byte for byte.
var stepperTests = []struct{ name, md, want string }{
	{"stepper", "{% stepper %}\n{% step %}\n### Install\n\nRun it.\n{% endstep %}\n\n{% step %}\nDone.\n{% endstep %}\n{% endstepper %}\n",
		`stepper[stepper-step[heading-3["Install"] paragraph["Run it."]] stepper-step[paragraph["Done."]]]`},
	{"blocks in a step", "{% stepper %}\n{% step %}\n```bash\nmake\n```\n\n{% hint style=\"info\" %}\nh\n{% endhint %}\n\n![i](https://i.example/a.png)\n{% endstep %}\n{% endstepper %}\n",
		`stepper[stepper-step[code{"syntax":"bash"}[code-line["make"]] hint{"style":"info"}[paragraph["h"]] images[image{"alt":"i","ref":{"kind":"url","url":"https://i.example/a.png"}}]]]`},
	{"expandable in a step", "{% stepper %}\n{% step %}\n<details>\n\n<summary>More</summary>\n\nx\n\n</details>\n{% endstep %}\n{% endstepper %}\n",
		`stepper[stepper-step[expandable]]`},
	{"empty step", "{% stepper %}\n{% step %}\n{% endstep %}\n{% endstepper %}\n", `stepper[stepper-step[paragraph[""]]]`},
	{"tags as text", "\\{% stepper %}\n\n\\{% step %}\n", `paragraph["{% stepper %}"] paragraph["{% step %}"]`},
}

// stepperReadTests are other markdown with steppers.
var stepperReadTests = []struct{ name, md, want string }{
	{"table in a step is rows", "{% stepper %}\n{% step %}\n| a |\n| - |\n| 1 |\n{% endstep %}\n{% endstepper %}", `stepper[stepper-step[paragraph["a"] paragraph["1"]]]`},
	{"tabs in a step are titles and content", "{% stepper %}\n{% step %}\n{% tabs %}\n{% tab title=\"A\" %}\na\n{% endtab %}\n{% endtabs %}\n{% endstep %}\n{% endstepper %}",
		`stepper[stepper-step[paragraph["A"] paragraph["a"]]]`},
	{"stepper in a list item is its content", "- {% stepper %}\n  {% step %}\n  a\n  {% endstep %}\n  {% endstepper %}", `list-unordered[list-item[paragraph["a"]]]`},
	{"stepper in a step is its content", "{% stepper %}\n{% step %}\n{% stepper %}\n{% step %}\na\n{% endstep %}\n{% endstepper %}\n{% endstep %}\n{% endstepper %}",
		`stepper[stepper-step[paragraph["a"]]]`},
	{"step end tag left out", "{% stepper %}\n{% step %}\na\n{% step %}\nb\n{% endstep %}\n{% endstepper %}", `stepper[stepper-step[paragraph["a"]] stepper-step[paragraph["b"]]]`},
	{"a step outside a stepper is text", "{% step %}\na\n{% endstep %}", `paragraph["{% step %} a {% endstep %}"]`},
	{"text before the first step", "{% stepper %}\nfirst\n{% step %}\na\n{% endstep %}\n{% endstepper %}", `stepper[stepper-step[paragraph["first"]] stepper-step[paragraph["a"]]]`},
}

func TestStepperRoundTrip(t *testing.T) { checkKind(t, outline, stepperTests, stepperReadTests) }
