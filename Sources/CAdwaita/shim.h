#ifndef CADWAITA_SHIM_H
#define CADWAITA_SHIM_H
// GTK 4 and libadwaita (libadwaita-1-dev), reached only through module DeskDaysWindow (the app's window).
// Debian 12 has GTK 4.8 and libadwaita 1.2: nothing newer is used.
#include <adwaita.h>

// The GResource of the window's .ui files (Sources/DeskDaysWindowResources, made by glib-compile-resources).
void deskdays_window_register_resource(void);

// Macros and variadic calls Swift cannot import, one function each.
static inline GType deskdays_type_string(void) { return G_TYPE_STRING; }
static inline GVariant *deskdays_variant_sss(const char *a, const char *b, const char *c) {
    return g_variant_new("(sss)", a, b, c);
}
static inline GVariant *deskdays_variant_ss(const char *a, const char *b) { return g_variant_new("(ss)", a, b); }
static inline GVariant *deskdays_variant_s(const char *a) { return g_variant_new("(s)", a); }
static inline GVariant *deskdays_variant_sssb(const char *a, const char *b, const char *c, gboolean d) {
    return g_variant_new("(sssb)", a, b, c, d);
}
// "(asas)" from two lists of lines ("" is an empty list): Plan's and WritePlan's prefer and avoid.
static inline GVariant *deskdays_variant_asas_lines(const char *a, const char *b) {
    gchar **first = a[0] ? g_strsplit(a, "\n", -1) : g_new0(gchar *, 1);
    gchar **second = b[0] ? g_strsplit(b, "\n", -1) : g_new0(gchar *, 1);
    GVariant *tuple = g_variant_new("(^as^as)", first, second);
    g_strfreev(first);
    g_strfreev(second);
    return tuple;
}
// A texture of an image's bytes (PNG, or SVG through gdk-pixbuf's loader), or NULL.
static inline GdkTexture *deskdays_texture_from_bytes(const char *bytes, gsize length) {
    GBytes *data = g_bytes_new(bytes, length);
    GdkTexture *texture = gdk_texture_new_from_bytes(data, NULL);
    g_bytes_unref(data);
    return texture;
}
// A reply's first string ("(s)"), or NULL.
static inline const char *deskdays_variant_first_string(GVariant *tuple) {
    if (tuple == NULL || !g_variant_is_of_type(tuple, G_VARIANT_TYPE("(s)"))) return NULL;
    const char *text = NULL;
    g_variant_get(tuple, "(&s)", &text);
    return text;
}
// Sets the accessible label of a widget (gtk_accessible_update_property is variadic).
static inline void deskdays_set_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
static inline void deskdays_set_accessible_description(GtkWidget *widget, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}
// A string property (g_object_set is variadic).
static inline void deskdays_set_string(gpointer object, const char *property, const char *value) {
    g_object_set(object, property, value, NULL);
}
// One accelerator for an action (gtk_application_set_accels_for_action takes a NULL-terminated array).
static inline void deskdays_set_accel(GtkApplication *app, const char *action, const char *accel) {
    const char *accels[] = { accel, NULL };
    gtk_application_set_accels_for_action(app, action, accels);
}
// A D-Bus error's own message, without GDBus's "GDBus.Error:NAME: " prefix.
static inline char *deskdays_error_text(GError *error) {
    if (error == NULL) return g_strdup("");
    if (g_dbus_error_is_remote_error(error)) g_dbus_error_strip_remote_error(error);
    return g_strdup(error->message);
}
static inline char *deskdays_error_name(GError *error) {
    return error != NULL && g_dbus_error_is_remote_error(error) ? g_dbus_error_get_remote_error(error) : NULL;
}
#endif
