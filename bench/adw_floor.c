/* The floor of bench/app.sh: a bare AdwApplicationWindow with one label,
 * the least a libadwaita window costs to its first frame, its memory and its
 * wake-ups when idle. Built by bench/app.sh with pkg-config libadwaita-1. */
#include <adwaita.h>

static void activate(GtkApplication *app, gpointer data) {
    (void)data;
    GtkWidget *window = adw_application_window_new(app);
    GtkWidget *label = gtk_label_new("DeskDays floor");
    adw_application_window_set_content(ADW_APPLICATION_WINDOW(window), label);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    AdwApplication *app = adw_application_new("io.github.deskdays.Floor", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), argc, argv);
    g_object_unref(app);
    return status;
}
