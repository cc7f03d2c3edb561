'./gcwork' +RTS '-N4' '-l' '-oln4.eventlog' '-sn4.s' 
     366,330,152 bytes allocated in the heap
     184,993,336 bytes copied during GC
       6,533,344 bytes maximum residency (16 sample(s))
          82,320 bytes maximum slop
              40 MiB total memory in use (0 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        62 colls,    62 par    0.082s   0.131s     0.0021s    0.0085s
  Gen  1        16 colls,    15 par    0.047s   0.088s     0.0055s    0.0125s

  Parallel GC work balance: 62.57% (serial 0%, perfect 100%)

  TASKS: 10 (1 bound, 9 peak workers (9 total), using -N4)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.001s  (  0.001s elapsed)
  MUT     time    0.101s  (  0.259s elapsed)
  GC      time    0.129s  (  0.219s elapsed)
  EXIT    time    0.000s  (  0.002s elapsed)
  Total   time    0.231s  (  0.481s elapsed)

  Alloc rate    3,626,147,217 bytes per MUT second

  Productivity  43.7% of total user, 53.8% of total elapsed

