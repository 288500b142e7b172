package io.vgpu.state.codec;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Go's {@code time.Format}/{@code time.Parse} for the two layouts on HAMi's wire:
 * {@code time.RFC3339} ({@code 2006-01-02T15:04:05Z07:00}, the node lock) and {@code time.DateTime}
 * ({@code 2006-01-02 15:04:05}, the handshake stamp). Parsing follows Go's lenient general parser
 * (one- or two-digit hour, an unannounced fractional second after the seconds, one space in the layout
 * matching a run of spaces) and reports Go's {@code ParseError} texts.
 */
final class GoTime {

    static final String RFC3339 = "2006-01-02T15:04:05Z07:00";
    static final String DATE_TIME = "2006-01-02 15:04:05";

    private static final List<String> RFC3339_CHUNKS =
            List.of("2006", "-", "01", "-", "02", "T", "15", ":", "04", ":", "05", "Z07:00");
    private static final List<String> DATE_TIME_CHUNKS =
            List.of("2006", "-", "01", "-", "02", " ", "15", ":", "04", ":", "05");

    private GoTime() {
    }

    /** {@code t.In(zone).Format(time.RFC3339)}: no fraction; {@code Z} for a zero offset, else {@code ±hh:mm}. */
    static String formatRfc3339(Instant t, ZoneId zone) {
        ZonedDateTime z = t.atZone(zone);
        int offsetSeconds = z.getOffset().getTotalSeconds();
        StringBuilder out = new StringBuilder(dateTime(z, 'T'));
        if (offsetSeconds == 0) {
            return out.append('Z').toString();
        }
        int minutes = offsetSeconds / 60; // Go truncates toward zero, dropping LMT seconds
        out.append(minutes < 0 ? '-' : '+');
        minutes = Math.abs(minutes);
        return out.append(two(minutes / 60)).append(':').append(two(minutes % 60)).toString();
    }

    /** {@code t.In(zone).Format(time.DateTime)}. */
    static String formatDateTime(Instant t, ZoneId zone) {
        return dateTime(t.atZone(zone), ' ');
    }

    /** {@code time.Parse(time.RFC3339, value)}: the instant it names, or Go's parse error. */
    static Decoded<Instant> parseRfc3339(String value) {
        return new Parser(value, RFC3339, RFC3339_CHUNKS).run()
                .map(f -> Instant.ofEpochSecond(f.local().toEpochSecond(ZoneOffset.UTC) - f.offsetSeconds(),
                        f.local().getNano()));
    }

    /** {@code time.ParseInLocation(time.DateTime, value, zone)}. */
    static Decoded<Instant> parseDateTime(String value, ZoneId zone) {
        return new Parser(value, DATE_TIME, DATE_TIME_CHUNKS).run()
                .map(f -> ZonedDateTime.ofLocal(f.local(), zone, null).toInstant());
    }

    private static String dateTime(ZonedDateTime z, char separator) {
        int year = z.getYear();
        String y = year >= 0 && year <= 9999 ? String.format("%04d", year) : Integer.toString(year);
        return y + '-' + two(z.getMonthValue()) + '-' + two(z.getDayOfMonth()) + separator
                + two(z.getHour()) + ':' + two(z.getMinute()) + ':' + two(z.getSecond());
    }

    private static String two(int n) {
        return n < 10 ? "0" + n : Integer.toString(n);
    }

    /** Go's {@code time.quote}: ASCII kept (quote and backslash escaped), anything else as {@code \xNN} bytes. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp < ' ' || cp >= 0x80) {
                String text = Character.isSurrogate((char) cp) && cp <= 0xFFFF ? "\uFFFD" : new String(Character.toChars(cp));
                for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
                    out.append(String.format("\\x%02x", b & 0xFF));
                }
            } else {
                if (cp == '"' || cp == '\\') {
                    out.append('\\');
                }
                out.append((char) cp);
            }
        }
        return out.append('"').toString();
    }

    /** Fields read off the text; the zone offset is 0 unless the layout carries one. */
    private record Fields(LocalDateTime local, long offsetSeconds) {
    }

    /** One run of Go's layout-driven parser over a fixed list of chunks (std elements and literals). */
    private static final class Parser {
        private final String original;
        private final String layout;
        private final List<String> chunks;
        private String rest;
        private int year;
        private int month = 1;
        private int day = 1;
        private int hour;
        private int minute;
        private int second;
        private int nanos;
        private long offsetSeconds;

        Parser(String value, String layout, List<String> chunks) {
            this.original = value;
            this.layout = layout;
            this.chunks = chunks;
            this.rest = value;
        }

        Decoded<Fields> run() {
            for (String chunk : chunks) {
                String before = rest;
                String problem = isStd(chunk) ? std(chunk) : literal(chunk);
                if (problem == null) {
                    continue;
                }
                if (problem.isEmpty()) {
                    return Decoded.err(cannotParse(isStd(chunk) ? before : rest, chunk));
                }
                return Decoded.err("parsing time " + quote(original) + ": " + problem + " out of range");
            }
            if (!rest.isEmpty()) {
                return Decoded.err("parsing time " + quote(original) + ": extra text: " + quote(rest));
            }
            if (day < 1 || day > YearMonth.of(year, month).lengthOfMonth()) {
                return Decoded.err("parsing time " + quote(original) + ": day out of range");
            }
            return Decoded.ok(new Fields(LocalDateTime.of(year, month, day, hour, minute, second, nanos), offsetSeconds));
        }

        private String cannotParse(String valueElem, String layoutElem) {
            return "parsing time " + quote(original) + " as " + quote(layout) + ": cannot parse "
                    + quote(valueElem) + " as " + quote(layoutElem);
        }

        private static boolean isStd(String chunk) {
            return Character.isDigit(chunk.charAt(0)) || chunk.equals("Z07:00");
        }

        /** Matches a literal; a space matches one or more spaces. Returns null or "" (mismatch). */
        private String literal(String chunk) {
            if (chunk.equals(" ")) {
                if (rest.isEmpty() || rest.charAt(0) != ' ') {
                    return "";
                }
                int spaces = 0;
                while (spaces < rest.length() && rest.charAt(spaces) == ' ') {
                    spaces++;
                }
                rest = rest.substring(spaces);
                return null;
            }
            if (!rest.startsWith(chunk)) {
                return "";
            }
            rest = rest.substring(chunk.length());
            return null;
        }

        /** Reads one std element. Returns null (ok), "" (bad syntax) or the name of the field out of range. */
        private String std(String chunk) {
            return switch (chunk) {
                case "2006" -> year();
                case "01" -> fixedTwo(1, 12, "month", v -> month = v);
                case "02" -> fixedTwo(0, 31, "day", v -> day = v);
                case "15" -> hour();
                case "04" -> fixedTwo(0, 59, "minute", v -> minute = v);
                case "05" -> seconds();
                default -> zone();
            };
        }

        private String year() {
            if (rest.length() < 4) {
                return "";
            }
            String p = rest.substring(0, 4);
            int start = p.charAt(0) == '-' || p.charAt(0) == '+' ? 1 : 0;
            if (start == 4 || !p.substring(start).chars().allMatch(Character::isDigit)
                    || !p.substring(start).chars().allMatch(c -> c < 0x80)) {
                return "";
            }
            year = Integer.parseInt(p.substring(start)) * (p.charAt(0) == '-' ? -1 : 1);
            rest = rest.substring(4);
            return null;
        }

        private String fixedTwo(int min, int max, String name, IntConsumer set) {
            if (rest.length() < 2 || !digit(rest, 0) || !digit(rest, 1)) {
                return "";
            }
            int v = (rest.charAt(0) - '0') * 10 + (rest.charAt(1) - '0');
            rest = rest.substring(2);
            if (v < min || v > max) {
                return name;
            }
            set.accept(v);
            return null;
        }

        private String hour() {
            if (rest.isEmpty() || !digit(rest, 0)) {
                return "";
            }
            int n = rest.length() >= 2 && digit(rest, 1) ? 2 : 1;
            int v = Integer.parseInt(rest.substring(0, n));
            rest = rest.substring(n);
            if (v >= 24) {
                return "hour";
            }
            hour = v;
            return null;
        }

        private String seconds() {
            String problem = fixedTwo(0, 59, "second", v -> second = v);
            if (problem != null) {
                return problem;
            }
            // Go accepts a fractional second the layout does not announce.
            if (rest.length() >= 2 && (rest.charAt(0) == '.' || rest.charAt(0) == ',') && digit(rest, 1)) {
                int n = 2;
                while (n < rest.length() && digit(rest, n)) {
                    n++;
                }
                String digits = rest.substring(1, n);
                String nine = (digits + "000000000").substring(0, 9);
                nanos = Integer.parseInt(nine);
                rest = rest.substring(n);
            }
            return null;
        }

        private String zone() {
            if (!rest.isEmpty() && rest.charAt(0) == 'Z') {
                rest = rest.substring(1);
                return null;
            }
            if (rest.length() < 6 || rest.charAt(3) != ':' || !digit(rest, 1) || !digit(rest, 2)
                    || !digit(rest, 4) || !digit(rest, 5)) {
                return "";
            }
            char sign = rest.charAt(0);
            int hh = Integer.parseInt(rest.substring(1, 3));
            int mm = Integer.parseInt(rest.substring(4, 6));
            if (sign != '+' && sign != '-') {
                return "";
            }
            rest = rest.substring(6);
            if (hh > 24) {
                return "time zone offset hour";
            }
            if (mm > 60) {
                return "time zone offset minute";
            }
            offsetSeconds = (hh * 3600L + mm * 60L) * (sign == '-' ? -1 : 1);
            return null;
        }

        private static boolean digit(String s, int i) {
            char c = s.charAt(i);
            return c >= '0' && c <= '9';
        }
    }
}
