// glibc_strftime prints C's strftime of glibc (what llama.cpp's strftime_now calls) for
// each line of its input, "year month day hour minute second gmtoff zone<TAB>format",
// as the hexadecimal bytes of the result: record.py compiles and runs it.
#include <stdio.h>
#include <time.h>
#include <string.h>
#include <stdlib.h>
int main() {
  char line[512];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    char *tab = strchr(line, '\t'); *tab = 0; char *fmt = tab + 1;
    struct tm tm; memset(&tm, 0, sizeof tm); long off; char zone[16];
    sscanf(line, "%d %d %d %d %d %d %ld %15s", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &off, zone);
    tm.tm_year -= 1900; tm.tm_mon -= 1; tm.tm_gmtoff = off; tm.tm_zone = zone; tm.tm_isdst = 0;
    // weekday/yearday via timegm
    struct tm c = tm; time_t tt = timegm(&c); gmtime_r(&tt, &c); tm.tm_wday = c.tm_wday; tm.tm_yday = c.tm_yday;
    char buf[2048]; size_t n = strftime(buf, sizeof buf, fmt, &tm);
    for (size_t i = 0; i < n; i++) printf("%02x", (unsigned char)buf[i]);
    printf("\n");
  }
}
