'./gcwork' +RTS '-N2' '--nonmoving-gc' '-l' '-olnonmoving.eventlog' '-snonmoving.s' 
     366,305,752 bytes allocated in the heap
     148,312,984 bytes copied during GC
      15,019,344 bytes maximum residency (9 sample(s))
      21,265,416 bytes maximum slop
              49 MiB total memory in use (2 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        64 colls,    64 par    0.123s   0.302s     0.0047s    0.0498s
  Gen  1         9 colls,     8 par    0.020s   0.040s     0.0044s    0.0102s
  Gen  1         9 syncs,                       0.047s     0.0052s    0.0248s
  Gen  1      concurrent,              0.037s   0.227s     0.0253s    0.0925s

  Parallel GC work balance: 48.21% (serial 0%, perfect 100%)

  TASKS: 7 (2 bound, 5 peak workers (5 total), using -N2)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.001s elapsed)
  MUT     time    0.097s  (  0.204s elapsed)
  GC      time    0.143s  (  0.342s elapsed)
  CONC GC time    0.037s  (  0.227s elapsed)
  EXIT    time    0.001s  (  0.001s elapsed)
  Total   time    0.279s  (  0.547s elapsed)

  Alloc rate    3,788,183,493 bytes per MUT second

  Productivity  48.1% of total user, 37.2% of total elapsed

