/// The namespace a layer surface is made with (the last argument of
/// `zwlr_layer_shell_v1.get_layer_surface`): what a compositor's rules for
/// layer surfaces match — Hyprland's `layerrule` (blur, ignore-alpha,
/// animations, dimming), niri's `layer-rule`. Each kind of surface Perch
/// makes has a namespace of its own, so that a rule written for the toasts
/// never lands on the transparent surface over the whole output that
/// catches clicks: `blur` there, without ignore-alpha, blurs the whole
/// screen while the center is open or the toasts hold the keyboard.
/// Documented in docs/compositors.md; users' configs name them, so they
/// do not change.
public enum LayerNamespace: String, Sendable, CaseIterable {
    /// The stacks of toasts. "notifications", the name mako and fnott give
    /// theirs, so that rules users already have apply to Perch unchanged.
    case toasts = "notifications"
    /// The notification center's panel.
    case center = "perch-center"
    /// The full-output, fully transparent surfaces that catch a click
    /// outside the center's panel, or on a window while the toasts hold
    /// the keyboard (nothing is drawn on them: no rule should match them).
    case catcher = "perch-catcher"
}
