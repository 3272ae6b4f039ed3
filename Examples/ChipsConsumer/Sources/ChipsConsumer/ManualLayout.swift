import TagflowLayout
import TagflowMetrics

/// Lays labels out as chips without TagflowChips: measure, add the chip's padding, flow.
///
/// The numbers are those of the default ``ChipStyle``: 14 px text on a 20 px line, 3 px by 10 px
/// of padding, a 1 px border and 8 px gaps.
func layOutByHand(_ labels: [String], width: Int) -> FlowLayoutResult {
    let fonts = FontStack.default  // Liberation Sans metrics, CJK and emoji fallbacks
    let items = labels.map { label in
        let text = fonts.measure(label, size: 14)  // width in 1/64 px, rounded up as Chromium does
        return FlowItem(
            size: LayoutSize(
                width: LayoutUnit(rawValue: text.width) + LayoutUnit(pixels: 2 * (10 + 1)),
                height: LayoutUnit(pixels: 20 + 2 * (3 + 1))))
    }
    let flow = FlowLayout(horizontalSpacing: LayoutUnit(pixels: 8), verticalSpacing: LayoutUnit(pixels: 8))
    return flow.layout(items, in: LayoutUnit(pixels: width))
}
