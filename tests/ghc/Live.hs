-- Live.hs: a small program whose heap grows while it runs, for tests/ghc_live.sh.
--
-- It inserts N keys into a map, pausing 20 ms every 1000 keys so that the run lasts a
-- couple of seconds and the eventlog arrives over time. Its eventlog goes to a Unix
-- socket through tests/ghc/socket_writer.c (the RTS's eventlog_writer hook), which
-- also obeys eventlog-socket's control messages.
import Control.Concurrent (threadDelay)
import Control.Exception (evaluate)
import Control.Monad (when)
import qualified Data.Map.Strict as M
import System.Environment (getArgs)

main :: IO ()
main = do
  args <- getArgs
  let n = case args of
        [a] -> read a
        _ -> 100000 :: Int
      go :: Int -> M.Map Int String -> IO ()
      go i m
        | i > n = print (M.size m)
        | otherwise = do
            let m' = M.insert i (show i) m
            _ <- evaluate (M.size m')
            when (i `mod` 1000 == 0) (threadDelay 20000)
            go (i + 1) m'
  go 0 M.empty
