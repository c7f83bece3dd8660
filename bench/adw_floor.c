/* The floor of bench/app.sh: a bare AdwApplicationWindow with one label,
 * the least a libadwaita window costs to its first frame, its memory and its
 * wake-ups when idle. It prints `first-frame floor SECONDS` (CLOCK_MONOTONIC)
 * after its first paint, as deskdays-app does with DESKDAYS_APP_FIRST_FRAME.
 * Built by bench/app.sh with pkg-config libadwaita-1. */
#include <adwaita.h>
#include <stdio.h>
#include <time.h>

static void painted(GdkFrameClock *clock, gpointer data) {
    (void)data;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    fprintf(stderr, "first-frame floor %.6f\n", now.tv_sec + now.tv_nsec / 1e9);
    g_signal_handlers_disconnect_by_func(clock, painted, NULL);
}

static void mapped(GtkWidget *window, gpointer data) {
    (void)data;
    g_signal_connect(gtk_widget_get_frame_clock(window), "after-paint", G_CALLBACK(painted), NULL);
}

static void activate(GtkApplication *app, gpointer data) {
    (void)data;
    GtkWidget *window = adw_application_window_new(app);
    GtkWidget *label = gtk_label_new("DeskDays floor");
    adw_application_window_set_content(ADW_APPLICATION_WINDOW(window), label);
    g_signal_connect(window, "map", G_CALLBACK(mapped), NULL);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    AdwApplication *app = adw_application_new("io.github.deskdays.Floor", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), argc, argv);
    g_object_unref(app);
    return status;
}
