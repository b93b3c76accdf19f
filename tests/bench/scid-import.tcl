# scid-import.tcl: the bench peer scid: import a PGN file into a new database, every
# move validated, as scid's own import does. Run with scid's Tcl shell:
#   tkscid tests/bench/scid-import.tcl DBBASE FILE.pgn
# Prints "games N" (the games scid imported). Not a test; tests/bench/throughput.sh uses it.
set base [lindex $argv 0]
set pgn [lindex $argv 1]
foreach ext {.si4 .sg4 .sn4 .si5 .sg5 .sn5} { file delete -force "$base$ext" }
if {[catch {sc_base create $base} db]} { puts stderr "scid: create $base: $db"; exit 2 }
if {[catch {sc_base import $db $pgn} result]} { puts stderr "scid: import $pgn: $result"; exit 2 }
puts "games [lindex $result 0]"
sc_base close $db
exit 0
