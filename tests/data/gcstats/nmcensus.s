'./gcwork' +RTS '-N2' '--nonmoving-gc' '-l-agun' '-olnmcensus.eventlog' '-snmcensus.s' 
     366,305,776 bytes allocated in the heap
     147,844,632 bytes copied during GC
      14,674,472 bytes maximum residency (13 sample(s))
       7,238,016 bytes maximum slop
              37 MiB total memory in use (2 MiB lost due to fragmentation)

                                     Tot time (elapsed)  Avg pause  Max pause
  Gen  0        61 colls,    61 par    0.117s   0.156s     0.0026s    0.0083s
  Gen  1        13 colls,    12 par    0.027s   0.047s     0.0036s    0.0104s
  Gen  1        13 syncs,                       0.015s     0.0011s    0.0081s
  Gen  1      concurrent,              0.056s   0.153s     0.0118s    0.0310s

  Parallel GC work balance: 52.76% (serial 0%, perfect 100%)

  TASKS: 7 (2 bound, 5 peak workers (5 total), using -N2)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  INIT    time    0.002s  (  0.002s elapsed)
  MUT     time    0.111s  (  0.197s elapsed)
  GC      time    0.145s  (  0.203s elapsed)
  CONC GC time    0.056s  (  0.153s elapsed)
  EXIT    time    0.004s  (  0.001s elapsed)
  Total   time    0.318s  (  0.403s elapsed)

  Alloc rate    3,296,513,926 bytes per MUT second

  Productivity  52.7% of total user, 48.9% of total elapsed

