/* The floor under a cold calendar read for bench/calendar.sh: libical
 * itself. Reads every *.ics file of a folder, parses it
 * (icalparser_parse_string) and walks each VEVENT's RRULE occurrences
 * (icalrecur_iterator, unbounded as the rules are), as DeskDays does before
 * any matching or caching; nothing else. Exits 1 when a file cannot be read.
 * Usage: ical_floor FOLDER */
#include <libical/ical.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	static char text[1 << 20];
	char path[4096];
	long files = 0, occurrences = 0;
	DIR *folder = argc == 2 ? opendir(argv[1]) : NULL;
	if (!folder)
		return 1;
	for (struct dirent *entry; (entry = readdir(folder));) {
		size_t length = strlen(entry->d_name);
		if (length < 4 || strcmp(entry->d_name + length - 4, ".ics") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", argv[1], entry->d_name);
		FILE *file = fopen(path, "r");
		if (!file)
			return 1;
		text[fread(text, 1, sizeof text - 1, file)] = 0;
		fclose(file);
		icalcomponent *calendar = icalparser_parse_string(text);
		files++;
		for (icalcomponent *event = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT); event;
		     event = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)) {
			icalproperty *rule = icalcomponent_get_first_property(event, ICAL_RRULE_PROPERTY);
			if (!rule) {
				occurrences++;
				continue;
			}
			icalrecur_iterator *each = icalrecur_iterator_new(icalproperty_get_rrule(rule), icalcomponent_get_dtstart(event));
			for (struct icaltimetype day = icalrecur_iterator_next(each); !icaltime_is_null_time(day);
			     day = icalrecur_iterator_next(each))
				occurrences++;
			icalrecur_iterator_free(each);
		}
		icalcomponent_free(calendar);
	}
	closedir(folder);
	printf("%ld files, %ld occurrences\n", files, occurrences);
	return 0;
}
