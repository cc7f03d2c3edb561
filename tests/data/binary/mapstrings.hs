-- mapstrings.hs: a -hi test program whose memory sits in a Data.Map of Strings, so the
-- largest bands are library constructors (: and Data.Map's Bin, from Debian's
-- libraries built without -finfo-table-map) that only the executable's symbol table
-- names, with the runtime's STACK further down.
import qualified Data.Map.Strict as M
import Data.List (foldl')
import System.Environment (getArgs)

key :: Int -> String
key i = "key-" ++ show i ++ "-" ++ replicate (i `mod` 7) 'x'

build :: Int -> M.Map String String
build n = foldl' (\m i -> M.insert (key i) (show (i * i)) m) M.empty [1 .. n]

main :: IO ()
main = do
  args <- getArgs
  let n = case args of (a : _) -> read a; _ -> 60000
      m = build n
  print (M.size m)
  -- walk the map a few times so it stays live across several censuses
  mapM_ (\k -> print (sum (map length (M.elems (M.filterWithKey (\x _ -> length x > k) m))))) [1 .. 12 :: Int]
